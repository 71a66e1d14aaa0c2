/** Execute's signature check: Canton's rules and texts, over the public vector's hash signed with node:crypto keys. */
import { generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeHex } from "../../src/external/byte-encoding.js";
import { SignatureFormat, SigningAlgorithmSpec } from "../../src/external/crypto-enums.js";
import { ExecuteSignaturesRejected, verifyExecuteSignatures, type PartyKeys, type PartySignaturesOf } from "../../src/external/execute-signatures.js";
import { fingerprintOf } from "../../src/external/fingerprint.js";
import { signingKeyFromSpki } from "../../src/external/signing-key.js";
import { VECTORS } from "./vectors.js";

const HASH = decodeHex(VECTORS.preparedTransaction.expectedHashHex);
const BOB = "bob::12205be3b9d177573fffb68eb245986f88b9df58d44ce575819078970580d87d1dc0";

function holder() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const key = signingKeyFromSpki("ed25519", new Uint8Array(publicKey.export({ format: "der", type: "spki" })));
  const fp = fingerprintOf(key);
  return { key, fp, sig: (m = HASH, by: string = fp) => ({ format: SignatureFormat.Concat, algorithm: SigningAlgorithmSpec.Ed25519, signature: new Uint8Array(sign(null, m, privateKey)), signedBy: by }) };
}

const outcome = async (actAs: string[], given: PartySignaturesOf[], keys: Record<string, PartyKeys>) => {
  try {
    await verifyExecuteSignatures(HASH, actAs, given, (p) => keys[p]);
    return "ok";
  } catch (e) {
    if (e instanceof ExecuteSignaturesRejected) return e.message;
    throw e;
  }
};

describe("execute signatures", () => {
  const k1 = holder();
  const k2 = holder();
  const one: Record<string, PartyKeys> = { [BOB]: { threshold: 1, keys: new Map([[k1.fp, k1.key]]) } };
  const two: Record<string, PartyKeys> = { [BOB]: { threshold: 2, keys: new Map([[k1.fp, k1.key], [k2.fp, k2.key]]) } };

  it("accepts the acting party's valid signature; ignores signatures of parties that do not act", async () => {
    expect(await outcome([BOB], [{ party: BOB, signatures: [k1.sig()] }], one)).toBe("ok");
    expect(await outcome([BOB], [{ party: BOB, signatures: [k1.sig()] }, { party: "carol::1220", signatures: [k2.sig()] }], one)).toBe("ok");
    expect(await outcome([BOB], [{ party: BOB, signatures: [k1.sig(), k2.sig()] }], two)).toBe("ok");
  });

  it("refuses with Canton's texts: unsigned party, foreign key, too few valid distinct signatures", async () => {
    expect(await outcome([BOB], [], one)).toBe(`The following actAs parties did not provide an external signature: ${BOB}`);
    expect(await outcome([BOB], [{ party: BOB, signatures: [k2.sig()] }], one)).toBe(`Signing key ${k2.fp} is not a valid key for ${BOB}`);
    const expected = (valid: number, invalid: number, threshold: number) =>
      `Received ${valid} valid signatures from distinct keys (${invalid} invalid), but expected at least ${threshold} valid for ${BOB}. Transaction hash to be signed: ${VECTORS.preparedTransaction.expectedHashHex}`;
    expect(await outcome([BOB], [{ party: BOB, signatures: [k1.sig(new Uint8Array(32))] }], one)).toBe(expected(0, 1, 1));
    expect(await outcome([BOB], [{ party: BOB, signatures: [{ ...k1.sig(), signature: new Uint8Array(63) }] }], one)).toBe(expected(0, 1, 1));
    expect(await outcome([BOB], [{ party: BOB, signatures: [k1.sig(), k1.sig()] }], two)).toBe(expected(1, 0, 2));
    expect(await outcome([BOB], [{ party: BOB, signatures: [k2.sig(HASH, k1.fp)] }], one)).toBe(expected(0, 1, 1));
    expect(await outcome([BOB], [{ party: BOB, signatures: [k1.sig()] }], {})).toMatch(/not an external party/);
  });

  it("refuses more signatures from a party than it has keys (each would be checked on the thread pool)", async () => {
    const padded = Array.from({ length: 3 }, () => k1.sig(new Uint8Array(32)));
    expect(await outcome([BOB], [{ party: BOB, signatures: [...padded, k1.sig()] }], two)).toBe(`Party ${BOB} provided 4 signatures but has only 2 signing keys`);
    expect(await outcome([BOB], [{ party: BOB, signatures: [k1.sig(), k1.sig()] }], one)).toBe(`Party ${BOB} provided 2 signatures but has only 1 signing keys`);
  });
});
