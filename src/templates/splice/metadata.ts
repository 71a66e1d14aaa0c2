/**
 * Transaction metadata keys Splice writes into choice results, so wallets and scan can tell a
 * transfer from a merge, a burn or a mint without re-deriving it.
 */
import type { Numeric } from "../../ledger/numeric.js";
import type { ExpiringAmount, Metadata } from "./types.js";

const SPLICE = "splice.lfdecentralizedtrust.org";
export const META = {
  txKind: `${SPLICE}/tx-kind`,
  sender: `${SPLICE}/sender`,
  reason: `${SPLICE}/reason`,
  burned: `${SPLICE}/burned`,
  createdInRound: `amulet.${SPLICE}/created-in-round`,
  ratePerRound: `amulet.${SPLICE}/rate-per-round`,
} as const;

export type TxKind = "transfer" | "merge-split" | "burn" | "mint" | "unlock" | "expire-dust";

export function txMeta(kind: TxKind, opts: { sender?: string; reason?: string; burned?: Numeric } = {}): Metadata {
  const values = new Map<string, string>([[META.txKind, kind]]);
  if (opts.sender) values.set(META.sender, opts.sender);
  if (opts.reason) values.set(META.reason, opts.reason);
  if (opts.burned) values.set(META.burned, opts.burned.toString());
  return { values };
}

export function mergeMeta(...metas: (Metadata | null | undefined)[]): Metadata {
  const values = new Map<string, string>();
  for (const m of metas) if (m) for (const [k, v] of m.values) values.set(k, v);
  return { values };
}

export function amuletMeta(amount: ExpiringAmount): Metadata {
  return {
    values: new Map([
      [META.createdInRound, amount.createdAt.number.toString()],
      [META.ratePerRound, amount.ratePerRound.rate.toString()],
    ]),
  };
}
