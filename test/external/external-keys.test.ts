/** Keys, fingerprints, party ids, strict hex/base64 and signatures: Canton's facts as known answers. */
import { generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeBase64, decodeHex, MalformedEncoding } from "../../src/external/byte-encoding.js";
import { cantonHash, HashPurpose, toHex } from "../../src/external/canton-hash.js";
import { CryptoKeyFormat, SignatureFormat, SigningAlgorithmSpec, SigningKeySpec } from "../../src/external/crypto-enums.js";
import { externalPartyId, partyHintProblem } from "../../src/external/external-party-id.js";
import { fingerprintOf, isFingerprint } from "../../src/external/fingerprint.js";
import { ED25519_SPKI_PREFIX, ed25519Key, InvalidSigningKey, parseSigningPublicKey } from "../../src/external/signing-key.js";
import { InvalidSignatureInput, verifySignature } from "../../src/external/signature.js";
import { VECTORS } from "./vectors.js";

const raw = decodeBase64(VECTORS.fingerprint.rawKeyBase64);
const spki = (r: Uint8Array) => new Uint8Array([...ED25519_SPKI_PREFIX, ...r]);

describe("Canton hash and fingerprints", () => {
  it("a hash is 0x12 0x20 then SHA-256 over the 4-byte purpose and the bytes", () => {
    // Known answers computed with Python's hashlib: sha256(0000000c) and sha256(0000000b 01).
    expect(toHex(cantonHash(HashPurpose.PublicKeyFingerprint, new Uint8Array()))).toBe("1220c22ceee66b8ab104483c83053173b33f992dd4fcb457284c60ef9d699a1c7059");
    expect(toHex(cantonHash(HashPurpose.TopologyTransactionSignature, Uint8Array.of(1)))).toBe("1220bd4f82197ef1d2871c8882a61b6a6056a9b09a053c0a99baee11a61caa87399a");
  });

  it("the docs key's fingerprint (raw and in DER SPKI form alike)", () => {
    expect(fingerprintOf(ed25519Key(raw))).toBe(VECTORS.fingerprint.expected);
    const fromSpki = parseSigningPublicKey(CryptoKeyFormat.DerX509SubjectPublicKeyInfo, spki(raw), SigningKeySpec.EcCurve25519);
    expect(fingerprintOf(fromSpki)).toBe(VECTORS.fingerprint.expected);
    expect(isFingerprint(VECTORS.fingerprint.expected)).toBe(true);
  });

  it("an ECDSA key's fingerprint is over its DER bytes", () => {
    const { publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const der = new Uint8Array(publicKey.export({ format: "der", type: "spki" }));
    const key = parseSigningPublicKey(CryptoKeyFormat.DerX509SubjectPublicKeyInfo, der, SigningKeySpec.EcP256);
    expect(fingerprintOf(key)).toBe(toHex(cantonHash(HashPurpose.PublicKeyFingerprint, der)));
  });
});

describe("party ids", () => {
  it("hint::fingerprint", () => {
    expect(externalPartyId("alice", fingerprintOf(ed25519Key(raw)))).toBe("alice::1220205057e331cc8929dd217e2f8e63f503b7081773de60d01fb46839700bc5caaa");
  });

  it("hints: Canton's identifier characters, single colons, no '::', at most 185", () => {
    for (const ok of ["alice", "a:b", "with space", "x-y_z", "h".repeat(185)]) expect(partyHintProblem(ok), ok).toBeUndefined();
    for (const bad of ["", "a::b", "bob!", "ünï", "h".repeat(186)]) expect(partyHintProblem(bad), bad).toBeTypeOf("string");
  });
});

describe("strict hex and base64", () => {
  it("decodes what is well formed", () => {
    expect(toHex(decodeHex("00fFaB"))).toBe("00ffab");
    expect(toHex(decodeBase64("AP+r"))).toBe("00ffab");
    expect(decodeHex("").length).toBe(0);
  });

  it("rejects what Buffer.from would silently mangle", () => {
    for (const s of ["abc", "zz", "0x00", "00 11"]) expect(() => decodeHex(s), s).toThrow(MalformedEncoding);
    for (const s of ["AP+", "AP+r=", "A?+r", "AP-r", "AQ==x", "AR=="]) expect(() => decodeBase64(s), s).toThrow(MalformedEncoding);
  });
});

describe("signing keys", () => {
  it("Ed25519: raw 32 bytes, or its 44-byte SPKI (legacy DER read as SPKI)", () => {
    expect(parseSigningPublicKey(CryptoKeyFormat.Raw, raw, SigningKeySpec.EcCurve25519).spki).toEqual(spki(raw));
    expect(parseSigningPublicKey(CryptoKeyFormat.Der, spki(raw), SigningKeySpec.EcCurve25519).fingerprintData).toEqual(raw);
  });

  it("rejects keys of the wrong length, format or kind", () => {
    const cases: [number, Uint8Array, number, RegExp][] = [
      [CryptoKeyFormat.Raw, raw.subarray(0, 31), SigningKeySpec.EcCurve25519, /expected 32 bytes, got 31/],
      [CryptoKeyFormat.Raw, new Uint8Array([...raw, 0]), SigningKeySpec.EcCurve25519, /expected 32 bytes, got 33/],
      [CryptoKeyFormat.Raw, new Uint8Array(), SigningKeySpec.EcCurve25519, /got 0/],
      [CryptoKeyFormat.DerX509SubjectPublicKeyInfo, raw, SigningKeySpec.EcCurve25519, /SubjectPublicKeyInfo/],
      [CryptoKeyFormat.DerX509SubjectPublicKeyInfo, spki(raw).subarray(0, 43), SigningKeySpec.EcCurve25519, /SubjectPublicKeyInfo/],
      [CryptoKeyFormat.Raw, raw, SigningKeySpec.EcP256, /Unsupported key format/],
      [CryptoKeyFormat.DerX509SubjectPublicKeyInfo, spki(raw), SigningKeySpec.EcP256, /EC-P256/],
      [CryptoKeyFormat.Raw, raw, SigningKeySpec.Unspecified, /unspecified/],
      [CryptoKeyFormat.Unspecified, raw, SigningKeySpec.EcCurve25519, /Unsupported key format/],
      [CryptoKeyFormat.DerX509SubjectPublicKeyInfo, raw, SigningKeySpec.EcSecp256k1, /Unsupported signing key specification/],
    ];
    for (const [format, data, spec, message] of cases) {
      expect(() => parseSigningPublicKey(format, data, spec), `${format}/${spec}/${data.length}`).toThrow(InvalidSigningKey);
      expect(() => parseSigningPublicKey(format, data, spec)).toThrow(message);
    }
    const p384 = new Uint8Array(generateKeyPairSync("ec", { namedCurve: "P-384" }).publicKey.export({ format: "der", type: "spki" }));
    expect(() => parseSigningPublicKey(CryptoKeyFormat.DerX509SubjectPublicKeyInfo, p384, SigningKeySpec.EcP256)).toThrow(/not the DER X.509 SubjectPublicKeyInfo of a point of the named curve P-256/);
  });
});

describe("signatures", () => {
  it("RFC 8032 test 1: the empty message under key d75a98…", () => {
    const key = ed25519Key(decodeHex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"));
    const signature = decodeHex(
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    );
    expect(verifySignature(key, new Uint8Array(), { format: SignatureFormat.Concat, signature, algorithm: SigningAlgorithmSpec.Ed25519 })).toBe(true);
    expect(verifySignature(key, Uint8Array.of(0), { format: SignatureFormat.Concat, signature, algorithm: SigningAlgorithmSpec.Ed25519 })).toBe(false);
  });

  it("Ed25519 from node:crypto: CONCAT and the deprecated RAW verify; tampering does not", () => {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const key = parseSigningPublicKey(CryptoKeyFormat.DerX509SubjectPublicKeyInfo, new Uint8Array(publicKey.export({ format: "der", type: "spki" })), SigningKeySpec.EcCurve25519);
    const message = cantonHash(HashPurpose.MultiTopologyTransaction, Uint8Array.of(1, 2, 3));
    const signature = new Uint8Array(sign(null, message, privateKey));
    for (const format of [SignatureFormat.Concat, SignatureFormat.Raw]) {
      for (const algorithm of [SigningAlgorithmSpec.Ed25519, SigningAlgorithmSpec.Unspecified]) expect(verifySignature(key, message, { format, signature, algorithm })).toBe(true);
    }
    const flipped = Uint8Array.from(signature);
    flipped[10] ^= 1;
    expect(verifySignature(key, message, { format: SignatureFormat.Concat, signature: flipped, algorithm: SigningAlgorithmSpec.Ed25519 })).toBe(false);
    const other = ed25519Key(raw);
    expect(verifySignature(other, message, { format: SignatureFormat.Concat, signature, algorithm: SigningAlgorithmSpec.Ed25519 })).toBe(false);
  });

  it("rejects signatures that cannot be the key's: wrong length, format or algorithm", () => {
    const key = ed25519Key(raw);
    const sig = (signature: Uint8Array, format: number = SignatureFormat.Concat, algorithm: number = SigningAlgorithmSpec.Ed25519) => ({ signature, format, algorithm });
    expect(() => verifySignature(key, Uint8Array.of(1), sig(new Uint8Array(63)))).toThrow(/expected 64 bytes, got 63/);
    expect(() => verifySignature(key, Uint8Array.of(1), sig(new Uint8Array(65)))).toThrow(InvalidSignatureInput);
    expect(() => verifySignature(key, Uint8Array.of(1), sig(new Uint8Array(64), SignatureFormat.Der))).toThrow(/format/);
    expect(() => verifySignature(key, Uint8Array.of(1), sig(new Uint8Array(64), SignatureFormat.Concat, SigningAlgorithmSpec.EcDsaSha256))).toThrow(/algorithm/);
  });

  it("ECDSA P-256 over SHA-256, DER-encoded (RAW migrates to DER)", () => {
    const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const key = parseSigningPublicKey(CryptoKeyFormat.DerX509SubjectPublicKeyInfo, new Uint8Array(publicKey.export({ format: "der", type: "spki" })), SigningKeySpec.EcP256);
    const message = new Uint8Array(32).fill(7);
    const der = new Uint8Array(sign("sha256", message, { key: privateKey, dsaEncoding: "der" }));
    for (const format of [SignatureFormat.Der, SignatureFormat.Raw]) expect(verifySignature(key, message, { format, signature: der, algorithm: SigningAlgorithmSpec.EcDsaSha256 })).toBe(true);
    expect(verifySignature(key, new Uint8Array(32), { format: SignatureFormat.Der, signature: der, algorithm: SigningAlgorithmSpec.EcDsaSha256 })).toBe(false);
    expect(() => verifySignature(key, message, { format: SignatureFormat.Concat, signature: der, algorithm: SigningAlgorithmSpec.EcDsaSha256 })).toThrow(InvalidSignatureInput);
    expect(() => verifySignature(key, message, { format: SignatureFormat.Der, signature: der, algorithm: SigningAlgorithmSpec.Ed25519 })).toThrow(InvalidSignatureInput);
    expect(() => verifySignature(key, message, { format: SignatureFormat.Der, signature: new Uint8Array(80).fill(0x30), algorithm: SigningAlgorithmSpec.EcDsaSha256 })).toThrow(InvalidSignatureInput);
  });
});
