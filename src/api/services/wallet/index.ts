/** The `/v0` and registry services: on the gRPC port, and on the JSON gateway in Splice's dialect. */
import { ExternalPartyAdminService } from "../../../../gen/ccwallet/validator/v0/external_party_admin_service_pb.js";
import { ScanService } from "../../../../gen/ccwallet/validator/v0/scan_service_pb.js";
import { ScanProxyService } from "../../../../gen/ccwallet/validator/v0/scan_proxy_service_pb.js";
import { TokenStandardRegistryService } from "../../../../gen/ccwallet/validator/v0/token_standard_registry_service_pb.js";
import { ValidatorAdminService } from "../../../../gen/ccwallet/validator/v0/validator_admin_service_pb.js";
import { ValidatorService } from "../../../../gen/ccwallet/validator/v0/validator_service_pb.js";
import { WalletService } from "../../../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import { externalPartyAdminService } from "./external-party-admin-service.js";
import { scanProxyService } from "./scan-proxy-service.js";
import { scanService } from "./scan-service.js";
import { tokenStandardRegistryService } from "./token-standard-registry-service.js";
import { validatorAdminService } from "./validator-admin-service.js";
import { validatorService } from "./validator-service.js";
import type { WalletApi } from "./wallet-api.js";
import { walletService } from "./wallet-service.js";

export function walletServices(api: WalletApi) {
  return [
    { service: WalletService, impl: walletService(api) },
    { service: ValidatorService, impl: validatorService(api) },
    { service: ValidatorAdminService, impl: validatorAdminService(api) },
    { service: ExternalPartyAdminService, impl: externalPartyAdminService(api) },
    { service: ScanProxyService, impl: scanProxyService(api) },
    { service: ScanService, impl: scanService(api) },
    { service: TokenStandardRegistryService, impl: tokenStandardRegistryService(api) },
  ] as const;
}

export type { WalletApi } from "./wallet-api.js";
export { conflictWithResult, connectCodeOf, walletErrorBehind } from "./wallet-connect-error.js";
export { contractToProto, contractWithStateToProto } from "./contract-proto.js";
export type { Handler } from "./endpoints.js";
