/** The token-standard registry's off-ledger reads (transfer factory, instruction choice contexts). */
import type { TokenStandardRegistryService } from "../../../../../gen/ccwallet/validator/v0/token_standard_registry_service_pb.js";
import type { Handler } from "../endpoints.js";
import { notYet } from "./not-yet.js";

type Registry = typeof TokenStandardRegistryService;

/** Caller: anyone (the registry API is public). */
export const registryHandlers: { [K in keyof Registry["method"]]: Handler<Registry, K, undefined> } = {
  getTransferFactory: notYet("POST /registry/transfer-instruction/v1/transfer-factory"),
  getTransferInstructionAcceptContext: notYet("POST /registry/transfer-instruction/v1/{id}/choice-contexts/accept"),
  getTransferInstructionRejectContext: notYet("POST /registry/transfer-instruction/v1/{id}/choice-contexts/reject"),
  getTransferInstructionWithdrawContext: notYet("POST /registry/transfer-instruction/v1/{id}/choice-contexts/withdraw"),
};
