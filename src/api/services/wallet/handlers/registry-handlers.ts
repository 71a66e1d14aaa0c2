/** The token-standard registry's off-ledger reads (transfer and allocation factories, choice contexts, metadata). */
import type { JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { GetAllocationChoiceContextRequest, GetChoiceContextRequest, TokenStandardRegistryService } from "../../../../../gen/ccwallet/validator/v0/token_standard_registry_service_pb.js";
import { TransferKind } from "../../../../../gen/ccwallet/validator/v0/token_standard_registry_service_pb.js";
import {
  getAllocationChoiceContext,
  getAllocationFactory,
  getTransferFactory,
  instrument,
  listInstruments,
  registryInfo,
  type InstrumentInfo,
  getTransferInstructionChoiceContext,
  RegistryError,
  type AllocationChoice,
  type ChoiceContextWithDisclosures,
  type RegistryDeps,
} from "../../../../registry/index.js";
import { WalletError } from "../../../../wallet/index.js";
import { registryDepsOf } from "../../../../wallet/support/token-standard-calls.js";
import type { Handler } from "../endpoints.js";
import type { WalletApi } from "../wallet-api.js";

type Registry = typeof TokenStandardRegistryService;

const KINDS = { self: TransferKind.SELF, direct: TransferKind.DIRECT, offer: TransferKind.OFFER } as const;

const depsOf = (api: WalletApi): RegistryDeps => registryDepsOf(api.wallet);

/** Registry refusals are 400/404 `{error}` like every other /v0 refusal. */
async function registry<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof RegistryError) throw new WalletError(e.status === 404 ? "not-found" : "bad-request", e.message);
    throw e;
  }
}

function choiceContextToProto(c: ChoiceContextWithDisclosures) {
  return {
    choiceContextData: c.choiceContextData as unknown as JsonObject,
    disclosedContracts: c.disclosedContracts.map((d) => ({
      templateId: d.templateId,
      contractId: d.contractId,
      createdEventBlob: Buffer.from(d.createdEventBlob, "base64"),
      synchronizerId: d.synchronizerId,
      ...(d.debugPackageName !== undefined ? { debugPackageName: d.debugPackageName } : {}),
      ...(d.debugPayload !== undefined ? { debugPayload: d.debugPayload as JsonObject } : {}),
      ...(d.debugCreatedAt !== undefined ? { debugCreatedAt: timestampFromDate(new Date(d.debugCreatedAt)) } : {}),
    })),
  };
}

/** The JSON body the registry functions read, back from the request message. */
const choiceContextBody = (req: GetChoiceContextRequest | GetAllocationChoiceContextRequest) => ({
  meta: Object.fromEntries(Object.entries(req.meta)),
  ...(req.excludeDebugFields !== undefined ? { excludeDebugFields: req.excludeDebugFields } : {}),
});

const instructionContext = (choice: "accept" | "reject" | "withdraw") => async (req: GetChoiceContextRequest, _caller: undefined, api: WalletApi) =>
  choiceContextToProto(await registry(() => getTransferInstructionChoiceContext(depsOf(api), req.transferInstructionId, choice, choiceContextBody(req))));

const allocationContext = (choice: AllocationChoice) => async (req: GetAllocationChoiceContextRequest, _caller: undefined, api: WalletApi) =>
  choiceContextToProto(await registry(() => getAllocationChoiceContext(depsOf(api), req.allocationId, choice, choiceContextBody(req))));

/** Caller: anyone (the registry API is public). */
export const registryHandlers: { [K in keyof Registry["method"]]: Handler<Registry, K, undefined> } = {
  getTransferFactory: async (req, _caller, api) => {
    const r = await registry(() =>
      getTransferFactory(depsOf(api), {
        choiceArguments: req.choiceArguments,
        ...(req.excludeDebugFields !== undefined ? { excludeDebugFields: req.excludeDebugFields } : {}),
      }),
    );
    return { factoryId: r.factoryId, transferKind: KINDS[r.transferKind], choiceContext: choiceContextToProto(r.choiceContext) };
  },
  getTransferInstructionAcceptContext: instructionContext("accept"),
  getTransferInstructionRejectContext: instructionContext("reject"),
  getTransferInstructionWithdrawContext: instructionContext("withdraw"),
  getAllocationFactory: async (req, _caller, api) => {
    const r = await registry(() =>
      getAllocationFactory(depsOf(api), {
        choiceArguments: req.choiceArguments,
        ...(req.excludeDebugFields !== undefined ? { excludeDebugFields: req.excludeDebugFields } : {}),
      }),
    );
    return { factoryId: r.factoryId, choiceContext: choiceContextToProto(r.choiceContext) };
  },
  getAllocationTransferContext: allocationContext("execute-transfer"),
  getAllocationWithdrawContext: allocationContext("withdraw"),
  getAllocationCancelContext: allocationContext("cancel"),
  getRegistryInfo: async (_req, _caller, api) => registryInfo(depsOf(api).dso),
  listInstruments: async (req) => {
    if (req.pageSize !== undefined && req.pageSize < 0) throw new WalletError("bad-request", "pageSize must not be negative");
    return { instruments: listInstruments(req.pageToken).map(instrumentToProto) };
  },
  getInstrument: async (req) => instrumentToProto(await registry(async () => instrument(req.instrumentId))),
};

function instrumentToProto(i: InstrumentInfo) {
  return { id: i.id, name: i.name, symbol: i.symbol, decimals: i.decimals, supportedApis: { ...i.supportedApis } };
}
