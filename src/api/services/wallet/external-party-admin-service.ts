/** ExternalPartyAdminService (`/v0/admin/external-party/*`): the validator operator's user or a participant admin. */
import type { ServiceImpl } from "@connectrpc/connect";
import type { ExternalPartyAdminService } from "../../../../gen/ccwallet/validator/v0/external_party_admin_service_pb.js";
import { asValidatorAdmin, wire } from "./endpoints.js";
import { externalPartyHandlers } from "./handlers/external-party-handlers.js";
import type { WalletApi } from "./wallet-api.js";

export function externalPartyAdminService(api: WalletApi): ServiceImpl<typeof ExternalPartyAdminService> {
  return wire<typeof ExternalPartyAdminService>(api)(asValidatorAdmin, externalPartyHandlers);
}
