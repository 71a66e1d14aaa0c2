/** Scan-proxy reads: the network's shared contracts as Splice's scan serves them. */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { type ScanProxyService, TransferCommandFailureKind, type TransferCommandContractStatusSchema } from "../../../../../gen/ccwallet/validator/v0/scan_proxy_service_pb.js";
import type { ContractRecord } from "../../../../ledger/records.js";
import { TransferCommandCounter } from "../../../../templates/splice/external-party-amulet-rules.js";
import { findPreapproval } from "../../../../wallet/use-cases/send-via-preapproval.js";
import { parsePartyId, walletErrors, type TransferCommandStatus } from "../../../../wallet/index.js";
import { contractToProto, contractWithStateToProto } from "../contract-proto.js";
import { FeaturedAppRight } from "../../../../templates/splice/amulet.js";
import type { Handler } from "../endpoints.js";
import type { WalletApi } from "../wallet-api.js";

type ScanProxy = typeof ScanProxyService;

const withState = (api: WalletApi, record: ContractRecord) => contractWithStateToProto(record, api.ledger.registry, api.ledger.identity.synchronizerId);

/** Caller: any valid token (its user id). */
export const scanProxyHandlers: { [K in keyof ScanProxy["method"]]: Handler<ScanProxy, K, string> } = {
  getDsoPartyId: async (_req, _caller, api) => ({ dsoPartyId: api.wallet.dso }),
  getAmuletRules: async (_req, _caller, api) => {
    const state = await api.wallet.network.read();
    return { amuletRules: withState(api, state.rules.record) };
  },
  getOpenAndIssuingMiningRounds: async (_req, _caller, api) => {
    const state = await api.wallet.network.read();
    return {
      openMiningRounds: state.openRounds.map((r) => withState(api, r.record)),
      issuingMiningRounds: state.issuingRounds.map((r) => withState(api, r.record)),
    };
  },
  lookupTransferPreapprovalByParty: async (req, _caller, api) => {
    const party = parsePartyId("party", req.party);
    const found = await findPreapproval(api.wallet, party);
    if (!found) throw walletErrors.notFound(`No TransferPreapproval found for party: ${party}`);
    return { transferPreapproval: withState(api, found.record) };
  },
  lookupTransferCommandCounterByParty: async (req, _caller, api) => {
    const party = parsePartyId("party", req.party);
    const counters = await api.wallet.client.active(TransferCommandCounter, [party]);
    const found = counters.find((c) => c.payload.sender === party && c.payload.dso === api.wallet.dso);
    if (!found) throw walletErrors.notFound(`No TransferCommandCounter found for party: ${party}`);
    return { transferCommandCounter: withState(api, found.record) };
  },
  lookupTransferCommandStatus: async (req, _caller, api) => {
    const sender = parsePartyId("sender", req.sender);
    const commands = await api.wallet.transferCommands.commands(sender, req.nonce);
    if (commands.length === 0) throw walletErrors.notFound(`No TransferCommand found for sender ${sender} and nonce ${req.nonce}`);
    const byId = Object.fromEntries(
      commands.slice(-100).map((c) => [c.record.contractId, { contract: contractToProto(c.record, api.ledger.registry), status: { status: statusToProto(c.status) } }]),
    );
    return { transferCommandsByContractId: byId };
  },
  lookupFeaturedAppRight: async (req, _caller, api) => {
    const provider = parsePartyId("provider_party_id", req.providerPartyId);
    const rights = await api.wallet.client.active(FeaturedAppRight, [provider]);
    const found = rights.find((c) => c.payload.provider === provider && c.payload.dso === api.wallet.dso);
    return found ? { featuredAppRight: contractToProto(found.record, api.ledger.registry) } : {};
  },
};

const FAILURE_KIND = { failed: TransferCommandFailureKind.FAILED, expired: TransferCommandFailureKind.EXPIRED, withdrawn: TransferCommandFailureKind.WITHDRAWN } as const;

function statusToProto(s: TransferCommandStatus): MessageInitShape<typeof TransferCommandContractStatusSchema>["status"] {
  switch (s.status) {
    case "created":
      return { case: "created", value: {} };
    case "sent":
      return { case: "sent", value: {} };
    case "failed":
      return { case: "failed", value: { failureKind: FAILURE_KIND[s.failureKind], reason: s.reason } };
  }
}
