/**
 * A token-standard client as a wallet would be: it asks the registry functions for the factory,
 * the choice context and the contracts to disclose, turns the created-event blobs back into
 * disclosed contracts, and exercises the standard interfaces through the ledger only.
 */
import { uncachedNetwork } from "../../src/network/network-cache.js";
import { parseCreatedEventBlob } from "../../src/ledger/created-event-blob.js";
import { fromDamlJson, type DamlType } from "../../src/ledger/daml-type.js";
import { Numeric } from "../../src/ledger/numeric.js";
import type { ContractRecord, ExerciseNodeRecord, TransactionRecord } from "../../src/ledger/records.js";
import type { InterfaceDef, Template } from "../../src/ledger/template.js";
import { tokenStandardGenesis } from "../../src/dso/token-standard.js";
import {
  getTransferFactory,
  getTransferInstructionChoiceContext,
  type ChoiceContextWithDisclosures,
  type RegistryDeps,
  type TransferInstructionChoice,
} from "../../src/registry/index.js";
import { Amulet, AmuletTransferInstruction, ExternalPartyAmuletRules, LockedAmulet } from "../../src/templates/splice/index.js";
import {
  TransferFactory,
  TransferInstruction,
  TransferInstructionChoices,
  type Transfer,
  type TransferInstructionResult,
} from "../../src/templates/splice/token-standard/index.js";
import { ChoiceContext, type ExtraArgs } from "../../src/templates/splice/types.js";
import type { CcFixture } from "./cc-fixture.js";

export const HOUR = 3_600_000_000n;

/**
 * Genesis creates the factory once the server wires `tokenStandardGenesis` (and with it the DSO's
 * token-standard automation steps); until then, it is created here. Returns whether it was wired.
 */
export async function ensureFactory(fx: CcFixture): Promise<boolean> {
  if ((await fx.client.active(ExternalPartyAmuletRules, [fx.dso])).length > 0) return true;
  for (const g of tokenStandardGenesis) await fx.client.create([fx.dso], g.template, g.payload(fx.dso));
  return false;
}

export const registryDeps = (fx: CcFixture): RegistryDeps => ({ client: fx.client, dso: fx.dso, network: uncachedNetwork(fx.client, fx.dso), now: () => fx.clock.now() });

/** What a client does with `disclosedContracts`: hand the blobs back, resolved as the API does. */
export async function disclosedRecords(fx: CcFixture, ctx: ChoiceContextWithDisclosures): Promise<ContractRecord[]> {
  const out: ContractRecord[] = [];
  for (const d of ctx.disclosedContracts) {
    const blob = parseCreatedEventBlob(Buffer.from(d.createdEventBlob, "base64"));
    const rec = await fx.t.server.store.activeContract(blob.contractId);
    if (rec) out.push(rec);
  }
  return out;
}

export const extraArgsOf = (ctx: ChoiceContextWithDisclosures): ExtraArgs => ({
  context: fromDamlJson(ChoiceContext, ctx.choiceContextData) as ExtraArgs["context"],
  meta: { values: new Map() },
});

export async function exerciseInterface<R>(
  fx: CcFixture,
  actAs: string,
  iface: InterfaceDef<never>,
  contractId: string,
  choice: { name: string; result: DamlType },
  argument: unknown,
  disclosed: readonly ContractRecord[],
): Promise<{ result: R; tx: TransactionRecord }> {
  const tx = await fx.client.submit(
    [actAs],
    [{ kind: "exercise", target: { kind: "interface", iface: iface as InterfaceDef<unknown> }, contractId, choice: choice.name, argument }],
    { disclosed },
  );
  return { result: fromDamlJson(choice.result, (tx.nodes[0] as ExerciseNodeRecord).result) as R, tx };
}

export function standardTransfer(fx: CcFixture, sender: string, receiver: string, amount: string, holdings: string[], ttl = HOUR): Transfer {
  const now = fx.clock.now();
  return {
    sender,
    receiver,
    amount: Numeric.parse(amount),
    instrumentId: { admin: fx.dso, id: "Amulet" },
    requestedAt: now,
    executeBefore: now + ttl,
    inputHoldingCids: holdings,
    meta: { values: new Map() },
  };
}

/** The full client flow of `TransferFactory_Transfer`: registry call, then the ledger. */
export async function instructTransfer(fx: CcFixture, transfer: Transfer) {
  const choiceArguments = {
    expectedAdmin: fx.dso,
    transfer: toJsonTransfer(transfer),
    extraArgs: { context: {}, meta: {} },
  };
  const factory = await getTransferFactory(registryDeps(fx), { choiceArguments });
  const disclosed = await disclosedRecords(fx, factory.choiceContext);
  const { result, tx } = await exerciseInterface<TransferInstructionResult>(
    fx,
    transfer.sender,
    TransferFactory as InterfaceDef<never>,
    factory.factoryId,
    TransferFactory.choices.get("TransferFactory_Transfer")!,
    { expectedAdmin: fx.dso, transfer, extraArgs: extraArgsOf(factory.choiceContext) },
    disclosed,
  );
  return { kind: factory.transferKind, result, tx };
}

/** Accept, reject or withdraw as the client would: registry context, then the ledger. */
export async function actOnInstruction(fx: CcFixture, actAs: string, instructionCid: string, choice: TransferInstructionChoice) {
  const ctx = await getTransferInstructionChoiceContext(registryDeps(fx), instructionCid, choice, {});
  const disclosed = await disclosedRecords(fx, ctx);
  return exerciseInterface<TransferInstructionResult>(
    fx,
    actAs,
    TransferInstruction as InterfaceDef<never>,
    instructionCid,
    TransferInstructionChoices[choice],
    { extraArgs: extraArgsOf(ctx) },
    disclosed,
  );
}

function toJsonTransfer(tr: Transfer): unknown {
  return {
    sender: tr.sender,
    receiver: tr.receiver,
    amount: tr.amount.toString(),
    instrumentId: tr.instrumentId,
    requestedAt: new Date(Number(tr.requestedAt / 1000n)).toISOString(),
    executeBefore: new Date(Number(tr.executeBefore / 1000n)).toISOString(),
    inputHoldingCids: tr.inputHoldingCids,
    meta: { values: {} },
  };
}

/** Every CC-relevant contract of some parties, to show a refused command changed nothing. */
export async function snapshot(fx: CcFixture, parties: string[]): Promise<string[]> {
  const ids = async (tpl: Template<never>) => (await fx.client.active(tpl as never, parties)).map((c) => `${c.record.templateId}:${c.contractId}`);
  const all = [...(await ids(Amulet as never)), ...(await ids(LockedAmulet as never)), ...(await ids(AmuletTransferInstruction as never))];
  return all.sort();
}
