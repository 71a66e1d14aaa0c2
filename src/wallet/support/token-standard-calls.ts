/**
 * The wallet as a token-standard client: it asks the registry (src/registry, Splice's scan API
 * as functions) for the transfer factory or an instruction's choice context, resolves the
 * contracts to disclose as the Ledger API resolves created-event blobs, and exercises the
 * standard interfaces with the caller's party acting — exactly what an external wallet does.
 */
import { fromDamlJson, toDamlJson } from "../../ledger/daml-type.js";
import type { SubmitOptions } from "../../ledger/ledger-client.js";
import type { ContractRecord } from "../../ledger/records.js";
import type { InterfaceChoice, InterfaceDef } from "../../ledger/template.js";
import {
  getTransferFactory,
  getTransferInstructionChoiceContext,
  RegistryError,
  type ChoiceContextWithDisclosures,
  type RegistryDeps,
  type TransferInstructionChoice,
  type TransferKind,
} from "../../registry/index.js";
import {
  Transfer,
  TransferFactory,
  TransferFactoryChoices,
  TransferInstruction,
  TransferInstructionChoices,
  type TransferInstructionResult,
} from "../../templates/splice/token-standard/transfer-instruction-v1.js";
import { ChoiceContext, emptyMetadata, type ExtraArgs } from "../../templates/splice/types.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";
import { updated } from "../../util/extend.js";

export const registryDepsOf = (deps: WalletDeps): RegistryDeps => ({ client: deps.client, dso: deps.dso, network: deps.network, now: () => deps.clock.now() });

/** Registry refusals in the wallet's terms (same status, same message). */
async function fromRegistry<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (e) {
    if (e instanceof RegistryError) throw e.status === 404 ? walletErrors.notFound(e.message) : walletErrors.badRequest(e.message);
    throw e;
  }
}

/** What the Ledger API does with `disclosed_contracts`: look each one up; an archived one is simply absent. */
async function disclosedOf(deps: WalletDeps, ctx: ChoiceContextWithDisclosures): Promise<ContractRecord[]> {
  const records = await Promise.all(ctx.disclosedContracts.map((d) => deps.store.activeContract(d.contractId)));
  return records.filter((r): r is ContractRecord => r !== undefined);
}

const extraArgsOf = (ctx: ChoiceContextWithDisclosures): ExtraArgs => ({
  context: fromDamlJson(ChoiceContext, ctx.choiceContextData) as ExtraArgs["context"],
  meta: emptyMetadata(),
});

async function exerciseInterface<V, A>(
  deps: WalletDeps,
  actAs: string,
  iface: InterfaceDef<V>,
  contractId: string,
  choice: InterfaceChoice<V, A, TransferInstructionResult>,
  argument: A,
  options: SubmitOptions,
): Promise<TransferInstructionResult> {
  return (await deps.client.exerciseInterface([actAs], iface, contractId, choice, argument, options)).result;
}

/** What the registry answers for a transfer, ready for the ledger: factory, choice arguments, disclosures. */
export interface FactoryCall {
  readonly kind: TransferKind;
  readonly factoryCid: string;
  readonly extraArgs: ExtraArgs;
  readonly disclosed: readonly ContractRecord[];
}

/** Asks the registry (`/registry/transfer-instruction/v1/transfer-factory`) for `transfer`'s factory and context. */
export async function transferFactoryCall(deps: WalletDeps, transfer: Transfer): Promise<FactoryCall> {
  const emptyExtraArgs = { context: { values: {} }, meta: { values: {} } };
  const choiceArguments = { expectedAdmin: deps.dso, transfer: toDamlJson(Transfer, transfer), extraArgs: emptyExtraArgs };
  const factory = await fromRegistry(getTransferFactory(registryDepsOf(deps), { choiceArguments, excludeDebugFields: true }));
  const disclosed = await disclosedOf(deps, factory.choiceContext);
  return { kind: factory.transferKind, factoryCid: factory.factoryId, extraArgs: extraArgsOf(factory.choiceContext), disclosed };
}

/** `TransferFactory_Transfer` as the sender: registry call for factory and context, then the ledger. */
export async function instructTransfer(deps: WalletDeps, transfer: Transfer, options: SubmitOptions = {}): Promise<{ kind: TransferKind; result: TransferInstructionResult }> {
  const factory = await transferFactoryCall(deps, transfer);
  const result = await exerciseInterface(
    deps,
    transfer.sender,
    TransferFactory,
    factory.factoryCid,
    TransferFactoryChoices.transfer,
    { expectedAdmin: deps.dso, transfer, extraArgs: factory.extraArgs },
    updated(options, { disclosed: [...factory.disclosed] }),
  );
  return { kind: factory.kind, result };
}

/** Accept, reject or withdraw a transfer instruction as `actor`: registry context, then the ledger. */
export async function answerInstruction(deps: WalletDeps, actor: string, instructionCid: string, choice: TransferInstructionChoice): Promise<TransferInstructionResult> {
  const ctx = await fromRegistry(getTransferInstructionChoiceContext(registryDepsOf(deps), instructionCid, choice, { excludeDebugFields: true }));
  return exerciseInterface(
    deps,
    actor,
    TransferInstruction,
    instructionCid,
    TransferInstructionChoices[choice],
    { extraArgs: extraArgsOf(ctx) },
    { disclosed: await disclosedOf(deps, ctx) },
  );
}
