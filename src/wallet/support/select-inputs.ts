/**
 * Input selection for sends: reward coupons first (they must be minted anyway), then holdings,
 * smallest first so dust gets merged — within the 100-input limit. When the smallest-first choice
 * needs too many inputs, the largest holdings cover the amount and the free slots still merge the
 * smallest ones. If 100 inputs cannot cover the amount at all, the caller gets a clear refusal.
 */
import { Numeric } from "../../ledger/numeric.js";

export interface Candidate {
  readonly contractId: string;
  /** What the input contributes now (a holding's current amount, a coupon's issuance). */
  readonly value: Numeric;
  readonly kind: "holding" | "coupon";
}

export type Selection =
  | { readonly kind: "ok"; readonly inputs: readonly Candidate[]; readonly total: Numeric }
  | { readonly kind: "insufficient"; readonly available: Numeric }
  | { readonly kind: "too-many-inputs"; readonly coverableWithMax: Numeric };

export const MAX_INPUTS = 100;

const sum = (xs: readonly Candidate[]) => xs.reduce((a, c) => a.add(c.value), Numeric.zero);
const asc = (a: Candidate, b: Candidate) => a.value.cmp(b.value);

export function selectInputs(candidates: readonly Candidate[], amount: Numeric, max = MAX_INPUTS): Selection {
  const usable = candidates.filter((c) => c.value.isPositive());
  const available = sum(usable);
  if (available.lt(amount)) return { kind: "insufficient", available };
  const coupons = usable.filter((c) => c.kind === "coupon").sort(asc).reverse().slice(0, max);
  const holdings = usable.filter((c) => c.kind === "holding").sort(asc);

  const picked = [...coupons];
  let total = sum(picked);
  for (const h of holdings) {
    if (total.gte(amount) || picked.length >= max) break;
    picked.push(h);
    total = total.add(h.value);
  }
  if (total.gte(amount)) return { kind: "ok", inputs: picked, total };

  // Smallest-first ran out of slots: cover with the largest, then merge small ones into the rest.
  const largest = [...holdings].reverse();
  const cover: Candidate[] = [];
  let covered = sum(coupons);
  for (const h of largest) {
    if (covered.gte(amount) || coupons.length + cover.length >= max) break;
    cover.push(h);
    covered = covered.add(h.value);
  }
  if (covered.lt(amount)) return { kind: "too-many-inputs", coverableWithMax: covered };
  const used = new Set(cover.map((c) => c.contractId));
  const fill = holdings.filter((h) => !used.has(h.contractId)).slice(0, max - coupons.length - cover.length);
  const inputs = [...coupons, ...cover, ...fill];
  return { kind: "ok", inputs, total: sum(inputs) };
}
