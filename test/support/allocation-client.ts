/**
 * A token-standard allocation client as a wallet or a settlement app would be: it asks the
 * registry functions for the factory or the allocation's choice context and the contracts to
 * disclose, and exercises the standard interfaces through the ledger only.
 */
import { Numeric } from "../../src/ledger/numeric.js";
import { getAllocationChoiceContext, getAllocationFactory, type AllocationChoice } from "../../src/registry/index.js";
import {
  Allocation,
  AllocationChoices,
  AllocationFactory,
  AllocationFactoryChoices,
  type AllocationInstructionResult,
  type AllocationSpecification,
} from "../../src/templates/splice/token-standard/index.js";
import type { CcFixture } from "./cc-fixture.js";
import { disclosedRecords, extraArgsOf, HOUR, registryDeps } from "./token-standard-client.js";

export interface LegSpec {
  readonly sender: string;
  readonly receiver: string;
  readonly executor: string;
  readonly amount: string;
  readonly settleIn?: bigint;
  readonly legId?: string;
}

/** One leg of a settlement requested now, to allocate within half the time and settle within `settleIn`. */
export function allocationSpec(fx: CcFixture, leg: LegSpec): AllocationSpecification {
  const now = fx.clock.now();
  const settleIn = leg.settleIn ?? HOUR;
  const meta = { values: new Map<string, string>() };
  return {
    settlement: { executor: leg.executor, settlementRef: { id: "trade-1", cid: null }, requestedAt: now, allocateBefore: now + settleIn / 2n, settleBefore: now + settleIn, meta },
    transferLegId: leg.legId ?? "leg-0",
    transferLeg: { sender: leg.sender, receiver: leg.receiver, amount: Numeric.parse(leg.amount), instrumentId: { admin: fx.dso, id: "Amulet" }, meta },
  };
}

const isoOf = (micros: bigint) => new Date(Number(micros / 1000n)).toISOString();

/** The Daml JSON a client sends as `choiceArguments` (with an empty `extraArgs`). */
export function allocateChoiceArguments(admin: string, spec: AllocationSpecification, holdings: readonly string[]): Record<string, unknown> {
  const { settlement, transferLeg } = spec;
  return {
    expectedAdmin: admin,
    allocation: {
      settlement: { ...settlement, requestedAt: isoOf(settlement.requestedAt), allocateBefore: isoOf(settlement.allocateBefore), settleBefore: isoOf(settlement.settleBefore), meta: { values: {} } },
      transferLegId: spec.transferLegId,
      transferLeg: { ...transferLeg, amount: transferLeg.amount.toString(), meta: { values: {} } },
    },
    requestedAt: isoOf(settlement.requestedAt),
    inputHoldingCids: holdings,
    extraArgs: { context: { values: {} }, meta: { values: {} } },
  };
}

/** `AllocationFactory_Allocate` as a wallet runs it: registry call, then the ledger as the sender. */
export async function allocate(fx: CcFixture, spec: AllocationSpecification, holdings: readonly string[], expectedAdmin = fx.dso) {
  const factory = await getAllocationFactory(registryDeps(fx), { choiceArguments: allocateChoiceArguments(expectedAdmin, spec, holdings) });
  const disclosed = await disclosedRecords(fx, factory.choiceContext);
  const argument = { expectedAdmin, allocation: spec, requestedAt: spec.settlement.requestedAt, inputHoldingCids: [...holdings], extraArgs: extraArgsOf(factory.choiceContext) };
  const { result } = await fx.client.exerciseInterface([spec.transferLeg.sender], AllocationFactory, factory.factoryId, AllocationFactoryChoices.allocate, argument, { disclosed });
  return result as AllocationInstructionResult;
}

export const allocationCidOf = (r: AllocationInstructionResult): string => {
  if (r.output.tag !== "AllocationInstructionResult_Completed") throw new Error(`allocation not completed: ${r.output.tag}`);
  return (r.output.value as { allocationCid: string }).allocationCid;
};

const CHOICES = { "execute-transfer": AllocationChoices.executeTransfer, withdraw: AllocationChoices.withdraw, cancel: AllocationChoices.cancel } as const;

/** Execute, withdraw or cancel: the registry's context, then the ledger as `actAs`. */
export async function actOnAllocation(fx: CcFixture, actAs: readonly string[], allocationCid: string, choice: AllocationChoice) {
  const ctx = await getAllocationChoiceContext(registryDeps(fx), allocationCid, choice, {});
  const disclosed = await disclosedRecords(fx, ctx);
  const { result } = await fx.client.exerciseInterface(actAs, Allocation, allocationCid, CHOICES[choice], { extraArgs: extraArgsOf(ctx) }, { disclosed });
  return result as { senderHoldingCids: string[]; receiverHoldingCids?: string[]; meta: unknown };
}
