/** The messages between the store and its writer thread (structured clone: plain data, bigints). */
import type { WriteOutcome } from "./ledger-writer.js";
import type { WriteRequest } from "./write-request.js";

export type ToWriter =
  | { readonly kind: "write"; readonly id: number; readonly batch: readonly WriteRequest[] }
  | { readonly kind: "autocheckpoint"; readonly pages: number }
  | { readonly kind: "close" };

export type FromWriter =
  | { readonly kind: "ready"; readonly end: bigint }
  | { readonly kind: "written"; readonly id: number; readonly outcomes: readonly WriteOutcome[]; readonly end: bigint }
  | { readonly kind: "failed"; readonly id: number; readonly error: string }
  | { readonly kind: "closed" };
