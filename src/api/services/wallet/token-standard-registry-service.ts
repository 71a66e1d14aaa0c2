/**
 * TokenStandardRegistryService (`/registry/{transfer-instruction,allocation-instruction,allocations,metadata}/v1/*`):
 * public, as the OpenAPI declares no security; it serves only what a transfer's or an allocation's
 * parties can disclose anyway.
 */
import type { ServiceImpl } from "@connectrpc/connect";
import type { TokenStandardRegistryService } from "../../../../gen/ccwallet/validator/v0/token_standard_registry_service_pb.js";
import { registryHandlers } from "./coin-handlers.js";
import { asAnyone, wire } from "./endpoints.js";
import type { WalletApi } from "./wallet-api.js";

export function tokenStandardRegistryService(api: WalletApi): ServiceImpl<typeof TokenStandardRegistryService> {
  return wire<typeof TokenStandardRegistryService>(api)(asAnyone, registryHandlers);
}
