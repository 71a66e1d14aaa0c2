/**
 * Exactly-once submission keyed by a client's tracking id (the external API's idempotency key):
 * the wallet derives a deterministic command id from it, so the ledger's own command
 * deduplication is the durable record of "created". A second request with the same id answers
 * 409 once the first was accepted (found through the deduplication record, which outlives the
 * deduplication window) and 429 while the first is still being processed on this node
 * (in-flight.ts); the ledger's commit-time duplicate check settles races between processes
 * sharing a store.
 */
import { createHash } from "node:crypto";
import { changeKeyOf } from "../../ledger/engine.js";
import { LedgerError } from "../../ledger/errors.js";
import { isLedgerString } from "../../ledger/ids.js";
import type { TransactionRecord } from "../../ledger/records.js";
import type { WalletDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";
import { exclusively } from "./in-flight.js";

/** What a tracking id names: the same id may be used once per kind and party. */
export type TrackedKind = "transfer-offer" | "buy-traffic-request";

/**
 * The command id of a tracked create. A tracking id that is a valid command-id suffix is kept
 * readable (`transfer-offer:<id>`); any other is hashed (`transfer-offer#<sha256>`), and the
 * different separators keep the two forms from colliding.
 */
export function trackedCommandId(kind: TrackedKind, trackingId: string): string {
  const readable = `${kind}:${trackingId}`;
  if (isLedgerString(readable)) return readable;
  return `${kind}#${createHash("sha256").update(trackingId).digest("hex")}`;
}

const acceptance = (deps: WalletDeps, party: string, kind: TrackedKind, trackingId: string) =>
  deps.store.acceptedCommand(changeKeyOf(deps.client.userId, [party], trackedCommandId(kind, trackingId)));

/** The offset of an accepted tracked create by `party`, if there was one (a point lookup). */
export async function trackedCreateOffset(deps: WalletDeps, party: string, kind: TrackedKind, trackingId: string): Promise<bigint | undefined> {
  return (await acceptance(deps, party, kind, trackingId))?.offset;
}

/** The transaction of an accepted tracked create by `party`, if there was one. */
export async function trackedCreate(deps: WalletDeps, party: string, kind: TrackedKind, trackingId: string): Promise<TransactionRecord | undefined> {
  const accepted = await acceptance(deps, party, kind, trackingId);
  return accepted ? deps.store.transactionByOffset(accepted.offset) : undefined;
}

/**
 * Runs `submit(commandId)` at most once per (party, kind, tracking id): 429 while another request
 * with the same key runs here, 409 once one was accepted. `submit` must submit with `actAs:
 * [party]` and the given command id, so the ledger records the acceptance under that key.
 */
export async function submitTracked<T>(deps: WalletDeps, party: string, kind: TrackedKind, trackingId: string, submit: (commandId: string) => Promise<T>): Promise<T> {
  const what = `a ${kind.replaceAll("-", " ")} with tracking id ${JSON.stringify(trackingId)}`;
  const key = JSON.stringify([party, kind, trackingId]);
  return exclusively(deps, key, `${what} is being processed; retry later`, async () => {
    try {
      if (await acceptance(deps, party, kind, trackingId)) throw walletErrors.conflict(`${what} has already been created; check its status`);
      return await submit(trackedCommandId(kind, trackingId));
    } catch (e) {
      if (e instanceof LedgerError && e.code === "DUPLICATE_COMMAND") throw walletErrors.conflict(`${what} has already been created; check its status`);
      throw e;
    }
  });
}
