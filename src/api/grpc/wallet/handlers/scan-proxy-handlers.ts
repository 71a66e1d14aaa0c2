/** Scan-proxy reads: the network's shared contracts as Splice's scan serves them. */
import type { ScanProxyService } from "../../../../../gen/ccwallet/validator/v0/scan_proxy_service_pb.js";
import type { Handler } from "../endpoints.js";
import { notYet } from "./not-yet.js";

type ScanProxy = typeof ScanProxyService;

/** Caller: any valid token (its user id). */
export const scanProxyHandlers: { [K in keyof ScanProxy["method"]]: Handler<ScanProxy, K, string> } = {
  getDsoPartyId: notYet("GET /v0/scan-proxy/dso-party-id"),
  getAmuletRules: notYet("GET /v0/scan-proxy/amulet-rules"),
  getOpenAndIssuingMiningRounds: notYet("GET /v0/scan-proxy/open-and-issuing-mining-rounds"),
  lookupTransferPreapprovalByParty: notYet("GET /v0/scan-proxy/transfer-preapprovals/by-party/{party}"),
  lookupTransferCommandCounterByParty: notYet("GET /v0/scan-proxy/transfer-command-counter/{party}"),
};
