/**
 * What an external key holder has: an Ed25519 key pair from node:crypto and the published hashing
 * rules (SHA-256 with Canton's purposes), written here without any code of ours. `onboardExternal`
 * makes it a party through the JSON Ledger API and gives a user of that name actAs rights.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import type { TestServer } from "./test-server.js";

export type KeyHolder = ReturnType<typeof keyHolder>;

export function keyHolder() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const spki = publicKey.export({ format: "der", type: "spki" });
  const raw = spki.subarray(12);
  const multihash = (purpose: number, bytes: Uint8Array) => {
    const p = Buffer.alloc(4);
    p.writeInt32BE(purpose);
    return Buffer.concat([Buffer.from([0x12, 0x20]), createHash("sha256").update(p).update(bytes).digest()]);
  };
  const fingerprint = multihash(12, raw).toString("hex");
  const txHash = (tx: Uint8Array) => multihash(11, tx);
  const multiHash = (txs: Uint8Array[]) => {
    const hashes = txs.map(txHash).sort((a, b) => a.toString("hex").localeCompare(b.toString("hex")));
    const count = Buffer.alloc(4);
    count.writeInt32BE(hashes.length);
    return multihash(55, Buffer.concat([count, ...hashes.flatMap((h) => [Buffer.from([0, 0, 0, h.length]), h])]));
  };
  return { raw, spki, fingerprint, txHash, multiHash, privateKey, sign: (m: Uint8Array) => sign(null, m, privateKey as KeyObject) };
}

/** A Ledger API JSON `Signature` of an Ed25519 key. */
export const jsonSignature = (signature: Buffer, signedBy: string) => ({
  format: "SIGNATURE_FORMAT_CONCAT",
  signature: signature.toString("base64"),
  signedBy,
  signingAlgorithmSpec: "SIGNING_ALGORITHM_SPEC_ED25519",
});

/** Onboards `holder` as party `hint::<fingerprint>` and creates user `hint` acting as it; returns the party and the user's token. */
export async function onboardExternal(s: TestServer, holder: KeyHolder, hint: string): Promise<{ party: string; token: string }> {
  const admin = await s.adminToken();
  const synchronizer = s.server.api.identity.synchronizerId;
  const publicKey = { format: "CRYPTO_KEY_FORMAT_RAW", keyData: holder.raw.toString("base64"), keySpec: "SIGNING_KEY_SPEC_EC_CURVE25519" };
  const gen = await s.json("POST", "/v2/parties/external/generate-topology", { synchronizer, partyHint: hint, publicKey }, admin);
  if (gen.status !== 200) throw new Error(`generate-topology: ${gen.text}`);
  const txs = (gen.body.topologyTransactions as string[]).map((t) => Buffer.from(t, "base64"));
  const allocate = await s.json(
    "POST",
    "/v2/parties/external/allocate",
    {
      synchronizer,
      onboardingTransactions: gen.body.topologyTransactions.map((transaction: string) => ({ transaction })),
      multiHashSignatures: [jsonSignature(holder.sign(holder.multiHash(txs)), holder.fingerprint)],
    },
    admin,
  );
  if (allocate.status !== 200) throw new Error(`allocate: ${allocate.text}`);
  const party = gen.body.partyId as string;
  const user = await s.json("POST", "/v2/users", { user: { id: hint, primaryParty: party }, rights: [{ kind: { CanActAs: { value: { party } } } }] }, admin);
  if (user.status !== 200) throw new Error(`user: ${user.text}`);
  return { party, token: await s.token(hint) };
}
