/**
 * The created-event blob: this participant's serialization of a contract, which the Ledger API
 * hands out with created events and scan-like reads, and takes back as a disclosed contract. Only
 * this participant reads it, so it is JSON of the stored record (ids first, so that they can be
 * read from the head alone) with the contract's salt, which only those shown the contract learn:
 * like Canton's authentication data, it is what a made-up blob cannot have. A ledger concept
 * rather than an API one: the registry, the API encoders and the command decoder all use it.
 */
import { errors } from "./errors.js";
import { BoundedMap } from "./bounded-map.js";
import type { ContractRecord } from "./records.js";

/** The opaque blob a client can hand back as a disclosed contract. */
export function createdEventBlobOf(c: Pick<ContractRecord, "contractId" | "templateId" | "packageName" | "payload" | "signatories" | "observers" | "key" | "createdAt" | "salt">): Uint8Array {
  const blob = {
    v: 1,
    contractId: c.contractId,
    templateId: c.templateId,
    packageName: c.packageName,
    payload: c.payload,
    signatories: c.signatories,
    observers: c.observers,
    key: c.key,
    createdAt: String(c.createdAt),
    salt: c.salt,
  };
  return Buffer.from(JSON.stringify(blob), "utf8");
}

/** By contract id (a contract's blob never changes): a store may hand out a fresh record per read. */
const storedBlobs = new BoundedMap<string, Uint8Array>({ maxEntries: 10_000, maxBytes: 64 * 1024 * 1024, maxEntryBytes: 1024 * 1024 });

/**
 * Whether `bytes` is exactly the blob of the stored contract: a disclosed contract must be the
 * contract as created (Canton authenticates it against its id), not an id with a made-up body, or
 * a disclosure would reveal a contract to whoever learnt its id. Kept per stored record (the
 * network's contracts come with every command of a wallet).
 */
export function isBlobOf(bytes: Uint8Array, stored: ContractRecord): boolean {
  let blob = storedBlobs.get(stored.contractId);
  if (!blob) {
    blob = createdEventBlobOf(stored);
    storedBlobs.set(stored.contractId, blob, blob.byteLength);
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(blob);
}

/** The head `createdEventBlobOf` writes; ids are hex and `pkg:Module:Entity`, never escaped. */
const BLOB_HEAD = /^\{"v":1,"contractId":"([0-9a-f]{2,512})","templateId":"([^"\\]{1,512})",/;

export function parseCreatedEventBlob(bytes: Uint8Array): { contractId: string; templateId: string } {
  // Only the ids are used (the contract itself is the one the store holds), so a blob of ours is
  // not parsed in full: a client sends the network's contracts, rules included, with every command.
  const head = BLOB_HEAD.exec(Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1100)).toString("latin1"));
  if (head) return { contractId: head[1], templateId: head[2] };
  try {
    const blob = JSON.parse(Buffer.from(bytes).toString("utf8")) as { v?: number; contractId?: unknown; templateId?: unknown };
    if (blob.v === 1 && typeof blob.contractId === "string" && typeof blob.templateId === "string") {
      return { contractId: blob.contractId, templateId: blob.templateId };
    }
  } catch {
    // fall through to the error below
  }
  throw errors.invalidField("disclosed_contracts.created_event_blob", "not a created event blob of this participant");
}
