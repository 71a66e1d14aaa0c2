/** Validator admin endpoints on Canton Coin: the operator's preapprovals, external-party balances. */
import type { ValidatorAdminService } from "../../../../../gen/ccwallet/validator/v0/validator_admin_service_pb.js";
import type { Handler } from "../endpoints.js";
import { notYet } from "./not-yet.js";

type Admin = typeof ValidatorAdminService;

export type AdminCoinMethod = "listTransferPreapprovals" | "lookupTransferPreapprovalByParty" | "cancelTransferPreapprovalByParty" | "getExternalPartyBalance";

export const adminCoinHandlers: { [K in AdminCoinMethod]: Handler<Admin, K, string> } = {
  listTransferPreapprovals: notYet("GET /v0/admin/transfer-preapprovals"),
  lookupTransferPreapprovalByParty: notYet("GET /v0/admin/transfer-preapprovals/by-party/{receiver-party}"),
  cancelTransferPreapprovalByParty: notYet("DELETE /v0/admin/transfer-preapprovals/by-party/{receiver-party}"),
  getExternalPartyBalance: notYet("GET /v0/admin/external-party/balance"),
};
