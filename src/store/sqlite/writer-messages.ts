/** The messages between the store and its writer thread (structured clone: plain data, bigints). */
import type { WriteOutcome } from "./ledger-writer.js";
import type { WriteRequest } from "./write-request.js";

export type ToWriter =
  | { readonly kind: "write"; readonly id: number; readonly batch: readonly WriteRequest[] }
  | { readonly kind: "autocheckpoint"; readonly pages: number }
  | { readonly kind: "close" };

export type FromWriter =
  /** Its connection is open (nothing waits for it; tests may). */
  | { readonly kind: "ready" }
  /** Batches written together, in one transaction: each one's outcomes, by its id. */
  | { readonly kind: "written"; readonly parts: readonly { readonly id: number; readonly outcomes: readonly WriteOutcome[] }[] }
  /** Not written; `fatal` when what reached the disk is unknown (a failed commit or sync). */
  | { readonly kind: "failed"; readonly ids: readonly number[]; readonly error: string; readonly fatal: boolean }
  | { readonly kind: "closed" };
