import { generateKeyPairSync, sign, verify } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { CryptoKeyFormat, SignatureFormat, SigningAlgorithmSpec, SigningKeySpec } from "../../src/external/crypto-enums.js";
import { hasIdentityR } from "../../src/external/ed25519-point.js";
import { verifySignature, verifySignatureOffLoop } from "../../src/external/signature.js";
import { SignatureWorker } from "../../src/external/signature-worker.js";
import { identityRSignature } from "../support/weak-ed25519.js";
import { parseSigningPublicKey, type SigningKey } from "../../src/external/signing-key.js";

function ed25519() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const key = parseSigningPublicKey(CryptoKeyFormat.DerX509SubjectPublicKeyInfo, publicKey.export({ format: "der", type: "spki" }), SigningKeySpec.EcCurve25519);
  return { key, sign: (m: Uint8Array) => new Uint8Array(sign(null, m, privateKey)) };
}

function p256() {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const key = parseSigningPublicKey(CryptoKeyFormat.DerX509SubjectPublicKeyInfo, publicKey.export({ format: "der", type: "spki" }), SigningKeySpec.EcP256);
  return { key, sign: (m: Uint8Array) => new Uint8Array(sign("sha256", m, { key: privateKey, dsaEncoding: "der" })) };
}

const message = (i: number) => new Uint8Array(32).fill(i);
const flipped = (s: Uint8Array) => s.map((b, i) => (i === 5 ? b ^ 1 : b));

describe("signature checks on the worker thread", () => {
  const worker = new SignatureWorker();
  afterAll(() => worker.close());

  it("answers each check of a turn's batch with its own verdict", async () => {
    const a = ed25519();
    const b = p256();
    const cases: [SigningKey, Uint8Array, Uint8Array, boolean][] = [];
    for (let i = 0; i < 40; i++) {
      const k = i % 2 === 0 ? a : b;
      const sig = k.sign(message(i));
      // Every third is tampered, every fifth signed by the other key: neither may verify.
      if (i % 3 === 0) cases.push([k.key, message(i), flipped(sig), false]);
      else if (i % 5 === 0) cases.push([(k === a ? b : a).key, message(i), sig, false]);
      else cases.push([k.key, message(i), sig, true]);
    }
    const verdicts = await Promise.all(cases.map(([key, m, sig]) => worker.check(key, m, sig)));
    expect(verdicts).toEqual(cases.map((c) => c[3]));
  });

  it("a malformed DER signature is a false verdict, not an error", async () => {
    const b = p256();
    expect(await worker.check(b.key, message(1), Uint8Array.of(0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x09, 0xff))).toBe(false);
  });

  it("after close, checks waiting for the worker and later ones run on the thread pool", async () => {
    const w = new SignatureWorker();
    const a = ed25519();
    expect(await w.check(a.key, message(1), a.sign(message(1)))).toBe(true);
    const waiting = w.check(a.key, message(2), a.sign(message(2)));
    const tampered = w.check(a.key, message(3), flipped(a.sign(message(3))));
    await w.close();
    expect([await waiting, await tampered]).toEqual([true, false]);
    expect(await w.check(a.key, message(4), a.sign(message(4)))).toBe(true);
    expect(await w.check(a.key, message(4), a.sign(message(5)))).toBe(false);
  });

  it("checks already posted to the worker when it stops are answered by the thread pool", async () => {
    const w = new SignatureWorker();
    const a = ed25519();
    expect(await w.check(a.key, message(1), a.sign(message(1)))).toBe(true);
    const inFlight = Array.from({ length: 30 }, (_, i) => w.check(a.key, message(i), i % 2 === 0 ? a.sign(message(i)) : flipped(a.sign(message(i)))));
    await new Promise((r) => setImmediate(r)); // the turn's batch is posted
    await w.close();
    expect(await Promise.all(inFlight)).toEqual(inFlight.map((_, i) => i % 2 === 0));
  });

  it("a signature that is a view into a larger buffer is checked on its own bytes", async () => {
    const a = ed25519();
    const body = new Uint8Array(10_000);
    body.set(a.sign(message(9)), 5_000);
    const view = body.subarray(5_000, 5_064);
    expect(await worker.check(a.key, message(9), view)).toBe(true);
    expect(await worker.check(a.key, message(8), view)).toBe(false);
  });
});

/** A sound key, and a signature of it whose R is the identity (see identityRSignature). */
function identityRSigned(message: Uint8Array) {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const key = parseSigningPublicKey(CryptoKeyFormat.DerX509SubjectPublicKeyInfo, publicKey.export({ format: "der", type: "spki" }), SigningKeySpec.EcCurve25519);
  return { key, publicKey, signature: new Uint8Array(identityRSignature(privateKey, message)) };
}

describe("an Ed25519 signature whose R is the identity", () => {
  const m = message(7);
  const forged = identityRSigned(m);
  const sig = { format: SignatureFormat.Concat, signature: forged.signature, algorithm: SigningAlgorithmSpec.Ed25519 };

  it("is one OpenSSL accepts (the premise)", () => {
    expect(verify(null, m, forged.publicKey, forged.signature)).toBe(true);
    expect(hasIdentityR(forged.signature)).toBe(true);
  });

  it("is refused on the worker, on the thread pool and on the event loop alike", async () => {
    const w = new SignatureWorker();
    expect(await w.check(forged.key, m, forged.signature)).toBe(false);
    await w.close();
    expect(await w.check(forged.key, m, forged.signature)).toBe(false); // the pool, after close
    expect(verifySignature(forged.key, m, sig)).toBe(false);
    expect(await verifySignatureOffLoop(forged.key, m, sig)).toBe(false);
  });

  it("without libsodium the worker checks with OpenSSL, and still refuses an identity R", async () => {
    const w = new SignatureWorker(null);
    try {
      const a = ed25519();
      const b = p256();
      const weak = identityRSigned(message(7));
      const verdicts = await Promise.all([
        w.check(a.key, message(1), a.sign(message(1))),
        w.check(a.key, message(2), flipped(a.sign(message(2)))),
        w.check(b.key, message(3), b.sign(message(3))),
        w.check(weak.key, message(7), weak.signature),
      ]);
      expect(verdicts).toEqual([true, false, true, false]);
    } finally {
      await w.close();
    }
  });

  it("reads a check's flags from the bytes it checks: those of the end of the turn", async () => {
    const w = new SignatureWorker(null);
    try {
      const view = new Uint8Array(200).subarray(10, 74);
      view.fill(9); // no identity R when asked
      const verdict = w.check(forged.key, m, view);
      view.set(forged.signature); // the key's identity-R signature by the end of the turn
      expect(await verdict).toBe(false);
    } finally {
      await w.close();
    }
  });
});

describe("an Ed25519 signature longer than 64 bytes", () => {
  it("is refused even when its first 64 bytes verify, with libsodium and with OpenSSL", async () => {
    const a = ed25519();
    const valid = a.sign(message(3));
    const longer = Uint8Array.from([...valid, 0]);
    for (const w of [new SignatureWorker(), new SignatureWorker(null)]) {
      expect(await w.check(a.key, message(3), valid)).toBe(true);
      expect(await w.check(a.key, message(3), longer)).toBe(false);
      await w.close();
    }
  });
});
