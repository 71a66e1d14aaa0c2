/**
 * How delegated merges are cut up, as pure functions: a party's holdings into merge transfers of
 * at most `max` inputs each, and merge transfers (of any parties) into BatchMergeUtility calls of
 * at most `max` inputs in all — the spec's "batches of about 100", kept as a hard bound so one
 * batch never costs more than one full self-merge would.
 */
import type { Numeric } from "../../ledger/numeric.js";

export interface Valued {
  readonly contractId: string;
  /** The holding's current value (initial amount less the holding fee accrued so far). */
  readonly value: Numeric;
}

/**
 * Largest first, so holdings worth nothing (dust: the fee has eaten them) end up in the last
 * chunk, together with value when there is any; a chunk of dust alone cannot be merged (a
 * transfer amount must be positive) and is left to the DSO's dust expiry.
 */
export function chunkHoldings<T extends Valued>(holdings: readonly T[], max: number): T[][] {
  const sorted = [...holdings].sort((a, b) => b.value.cmp(a.value) || (a.contractId < b.contractId ? -1 : 1));
  const chunks: T[][] = [];
  for (let i = 0; i < sorted.length; i += max) chunks.push(sorted.slice(i, i + max));
  return chunks;
}

/** Packs merge calls in order into batches whose input counts add up to at most `max`. */
export function packBatches<T extends { readonly inputs: number }>(calls: readonly T[], max: number): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const call of calls) {
    if (current.length > 0 && size + call.inputs > max) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(call);
    size += call.inputs;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** Groups owners (with their holding counts) so each group fills about one batch; a big owner is a group alone. */
export function groupOwners<T extends { readonly count: number }>(owners: readonly T[], max: number): T[][] {
  return packBatches(
    owners.map((o) => ({ owner: o, inputs: o.count })),
    max,
  ).map((g) => g.map((x) => x.owner));
}
