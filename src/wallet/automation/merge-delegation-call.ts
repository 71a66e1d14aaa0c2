/**
 * One delegated merge as a `MergeDelegationCall`: the owner's token-standard self-transfer of a
 * chunk of its holdings, with the factory and choice context the registry gives for it (what
 * the spec means by "builds merge operations through the registry API").
 *
 * The amount is exact: the registry's context names the open round the ledger will value the
 * inputs at, so the amount is their value at that round (initial amount less accrued holding
 * fees) less the output's create fee. The transfer then leaves no change: one holding of that
 * amount replaces the chunk, and what disappears is exactly the fees the transaction reports.
 */
import type { ContractRecord } from "../../ledger/records.js";
import { Numeric } from "../../ledger/numeric.js";
import type { AmuletPayload } from "../../templates/splice/amulet.js";
import { scaleFees } from "../../templates/splice/amulet-config.js";
import { currentAmount } from "../../templates/splice/fees.js";
import type { MergeDelegationMergeArg } from "../../templates/splice/merge-delegation.js";
import { CONTEXT_KEYS } from "../../templates/splice/token-standard/choice-context.js";
import type { Transfer } from "../../templates/splice/token-standard/transfer-instruction-v1.js";
import { emptyMetadata, type ExtraArgs } from "../../templates/splice/types.js";
import type { Held } from "../support/holdings-index.js";
import { transferFactoryCall } from "../support/token-standard-calls.js";
import type { WalletDeps } from "../wallet-deps.js";
import { updated } from "../../util/extend.js";

/** A merge transfer may be executed this long after it was planned (the batch runs at once). */
const MERGE_VALIDITY = 600_000_000n;

export interface ValuedHolding extends Held<AmuletPayload> {
  readonly contractId: string;
  readonly value: Numeric;
}

export interface PlannedMerge {
  readonly owner: string;
  readonly inputs: number;
  readonly call: { readonly delegationCid: string; readonly choiceArg: MergeDelegationMergeArg };
  /** What the registry says to disclose with the call. */
  readonly disclosed: readonly ContractRecord[];
}

function openRoundCid(extraArgs: ExtraArgs): string {
  const v = extraArgs.context.values.get(CONTEXT_KEYS.openRound);
  if (v?.tag !== "AV_ContractId") throw new Error("the registry's transfer context names no open round");
  return v.value;
}

/** The merge of `chunk` into one holding of `owner`, or null when it is worth no more than the fee (dust). */
export async function mergeCallFor(deps: WalletDeps, owner: string, delegationCid: string, chunk: readonly ValuedHolding[]): Promise<PlannedMerge | null> {
  const now = deps.clock.now();
  const draft: Transfer = {
    sender: owner,
    receiver: owner,
    // The registry's answer does not depend on the amount; the real one is set below.
    amount: Numeric.total(chunk.map((h) => h.value)),
    instrumentId: { admin: deps.dso, id: "Amulet" },
    requestedAt: now,
    executeBefore: now + MERGE_VALIDITY,
    inputHoldingCids: chunk.map((h) => h.contractId),
    meta: emptyMetadata(),
  };
  const factory = await transferFactoryCall(deps, draft);
  const cid = openRoundCid(factory.extraArgs);
  const round = (await deps.network.read()).openRounds.find((r) => r.contractId === cid);
  if (!round) throw new Error(`open round ${cid} of the registry's context is not active`);
  const n = round.payload.round.number;
  const value = chunk.reduce((sum, h) => sum.add(currentAmount(h.payload.amount, n)), Numeric.zero);
  // A self-transfer's one output pays only the create fee (no transfer fee to oneself, no lock).
  const fee = scaleFees(round.payload.amuletPrice, round.payload.transferConfigUsd).createFee.fee;
  const amount = value.sub(fee);
  if (!amount.isPositive()) return null;
  const transfer = updated(draft, { amount });
  const mergeTransfer = { factoryCid: factory.factoryCid, choiceArg: { expectedAdmin: deps.dso, transfer, extraArgs: factory.extraArgs } };
  return {
    owner,
    inputs: chunk.length,
    call: { delegationCid, choiceArg: { optMergeTransfer: mergeTransfer, optExtraTransfer: null, optFeaturedAppRight: null } },
    disclosed: factory.disclosed,
  };
}
