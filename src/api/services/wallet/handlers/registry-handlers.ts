/** The token-standard registry's off-ledger reads (transfer factory, instruction choice contexts). */
import type { JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { GetChoiceContextRequest, TokenStandardRegistryService } from "../../../../../gen/ccwallet/validator/v0/token_standard_registry_service_pb.js";
import { TransferKind } from "../../../../../gen/ccwallet/validator/v0/token_standard_registry_service_pb.js";
import {
  getTransferFactory,
  getTransferInstructionChoiceContext,
  RegistryError,
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

const instructionContext = (choice: "accept" | "reject" | "withdraw") => async (req: GetChoiceContextRequest, _caller: undefined, api: WalletApi) =>
  choiceContextToProto(
    await registry(() =>
      getTransferInstructionChoiceContext(depsOf(api), req.transferInstructionId, choice, {
        meta: Object.fromEntries(Object.entries(req.meta)),
        ...(req.excludeDebugFields !== undefined ? { excludeDebugFields: req.excludeDebugFields } : {}),
      }),
    ),
  );

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
};
