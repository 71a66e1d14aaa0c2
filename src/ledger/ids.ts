/**
 * Identifiers of the ledger, branded so that a party cannot be passed where a contract id is meant.
 * Each is parsed once at the API edge; inside the engine they are trusted.
 */
import { createHash, hash, randomBytes, randomFillSync } from "node:crypto";

declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

export type PartyId = Brand<string, "PartyId">;
export type ContractId = Brand<string, "ContractId">;
export type UserId = Brand<string, "UserId">;
export type UpdateId = Brand<string, "UpdateId">;
/** Absolute ledger offset; 0 is the ledger begin (before the first update). */
export type Offset = bigint;

/** Canton's PartyIdString: `hint::fingerprint`, at most 255 chars of [a-zA-Z0-9:\-_ ]. */
const PARTY_ID = /^[A-Za-z0-9:\-_ ]{1,255}$/;
/** Canton's LedgerString (user ids, command ids, update ids): at most 255 of [A-Za-z0-9#:\-_/ ]. */
const LEDGER_STRING = /^[A-Za-z0-9#:\-_/ ]{1,255}$/;
/** Canton's UserIdString: at most 128 of [a-z0-9@^$.!`\-#+'~_|:()]. Upper case is tolerated. */
const USER_ID = /^[A-Za-z0-9@^$.!`\-#+'~_|:()]{1,128}$/;
const CONTRACT_ID = /^[0-9a-f]{2,512}$/;

export const isPartyId = (s: string): s is PartyId => PARTY_ID.test(s) && s.includes("::");
export const isPartyHint = (s: string): boolean => /^[A-Za-z0-9\-_ ]{1,185}$/.test(s);
export const isLedgerString = (s: string): boolean => LEDGER_STRING.test(s);
export const isUserId = (s: string): s is UserId => USER_ID.test(s);
export const isContractId = (s: string): s is ContractId => CONTRACT_ID.test(s);

/** Hex digest with Canton's multihash prefix for SHA-256 (`1220`), as fingerprints and ids look. */
export function hash1220(...parts: string[]): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(p).update("\u0000");
  return "1220" + h.digest("hex");
}

// Random bytes are drawn 4 KiB at a time and handed out once each: a call into the CSPRNG per id
// cost more than the rest of making one.
const pool = Buffer.allocUnsafe(4096);
let poolAt = pool.length;

export function randomHex(bytes: number): string {
  if (bytes > pool.length) return randomBytes(bytes).toString("hex");
  if (poolAt + bytes > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += bytes;
  return pool.toString("hex", poolAt - bytes, poolAt);
}

/**
 * Update and contract ids start with 8 bytes that grow with each new update (wall-clock
 * microseconds, bumped to stay strictly increasing): they still look like Canton's hashes, but
 * the store's indexes on them are appended to instead of written at random pages — which halved
 * the SQLite cost of a CC transfer on a ledger of some 10^5 contracts (the rest stays random).
 */
let lastStamp = 0n;
function stamp(): string {
  const now = BigInt(Date.now()) * 1000n;
  lastStamp = now > lastStamp ? now : lastStamp + 1n;
  return lastStamp.toString(16).padStart(16, "0");
}

/** The suffix a contract id gets once its transaction commits (Canton's "suffixed" ids). */
const CONTRACT_ID_SUFFIX = "ca11";

/** Contract ids look like Canton's V1 ids: `00` + 32-byte discriminator + suffix. */
export function newContractId(updateSeed: string, nodeId: number): ContractId {
  // The update's stamp (its id's first 8 bytes after `1220`) keeps a transaction's contracts together.
  const digest = hash("sha256", `${updateSeed}/${nodeId}`, "hex");
  return ("00" + updateSeed.slice(4, 20) + digest.slice(16) + CONTRACT_ID_SUFFIX) as ContractId;
}

/**
 * A contract's salt, as Canton's contract authentication data: a hash of its transaction's seed,
 * which nothing the node hands out reveals (contract ids carry only a hash of it). Its created-event
 * blob carries the salt, so whoever knows a contract's id and guesses its contents still cannot
 * build a blob the node takes back as a disclosure, nor test a guess with one.
 */
export function contractSalt(updateSeed: string, nodeId: number): string {
  return hash("sha256", `${updateSeed}/${nodeId}/salt`, "hex").slice(0, 32);
}

/**
 * A contract id as it appears in a transaction not yet committed (a prepared transaction): Canton's
 * "unsuffixed" local id, `00` + 32-byte discriminator. The committed contract carries the suffix.
 */
export function unsuffixedContractId(cid: string): string {
  return cid.endsWith(CONTRACT_ID_SUFFIX) ? cid.slice(0, -CONTRACT_ID_SUFFIX.length) : cid;
}

export function suffixedContractId(localId: string): ContractId {
  return (localId + CONTRACT_ID_SUFFIX) as ContractId;
}

/** The 32-byte seed of node `nodeId` of the update seeded by `updateSeed` (prepared transactions carry them). */
export function nodeSeed(updateSeed: string, nodeId: number): Uint8Array {
  return createHash("sha256").update(`${updateSeed}/seed/${nodeId}`).digest();
}

/**
 * An update's id, public once committed, and the seed of its contract ids and node seeds, which
 * is not: from a transaction's id (an observer sees it) nobody can derive the ids of the other
 * contracts it created, as in Canton, whose contract ids come from a submission's secret seed.
 * Both share the update's stamp (its first 8 bytes after `1220`), which keeps a transaction's
 * contracts together in the store's indexes.
 */
export interface UpdateIds {
  readonly updateId: UpdateId;
  readonly seed: string;
}

/** A fresh update's ids: independent random parts. */
export function newUpdateIds(): UpdateIds {
  const at = stamp();
  return { updateId: ("1220" + at + randomHex(24)) as UpdateId, seed: "1220" + at + randomHex(24) };
}

/**
 * The ids of an externally signed transaction, fixed by what its parties signed: its preparation
 * time leads (as `stamp` does) and its transaction UUID (in the prepared metadata, which only the
 * signers see) supplies the rest, so the node that executes it derives the same contract ids the
 * prepared transaction showed; the update id and the seed are separate hashes of it.
 */
export function pinnedUpdateIds(preparationTime: bigint, transactionUuid: string): UpdateIds {
  const at = preparationTime.toString(16).padStart(16, "0").slice(-16);
  return { updateId: ("1220" + at + pinnedPart("interactive", transactionUuid)) as UpdateId, seed: "1220" + at + pinnedPart("interactive-seed", transactionUuid) };
}

const pinnedPart = (what: string, transactionUuid: string) => hash("sha256", `${what}/${transactionUuid}`, "hex").slice(0, 48);

export function partyIdFor(hint: string, namespace: string): PartyId {
  return `${hint}::${namespace}` as PartyId;
}
