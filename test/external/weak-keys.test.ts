/**
 * Weak public keys are refused where keys are parsed: Ed25519 points Canton's
 * `validatePublicKeyFull` refuses (small order, non-canonical, off the curve, not in the prime
 * subgroup), and P-256 SubjectPublicKeyInfos that are not a point of the curve. The forgeries
 * show why: node:crypto verifies them.
 */
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CryptoKeyFormat, SigningAlgorithmSpec, SignatureFormat, SigningKeySpec } from "../../src/external/crypto-enums.js";
import { ed25519PointProblem } from "../../src/external/ed25519-point.js";
import { ed25519Key, InvalidSigningKey, parseSigningPublicKey, signingKeyFromSpki } from "../../src/external/signing-key.js";
import { verifySignature } from "../../src/external/signature.js";
import { forgedSignature, mixedOrderKey, NON_CANONICAL_POINTS, NOT_ON_CURVE, SMALL_ORDER_POINTS, spkiOf } from "../support/weak-ed25519.js";

const hex = (h: string) => Buffer.from(h, "hex");
/** A message under which `raw` has a forged signature: messages are tried until one of the small-order R fits. */
function forgery(raw: Uint8Array): { message: Buffer; signature: Buffer } {
  for (let i = 0; ; i++) {
    const message = createHash("sha256").update(`message ${i}`).digest();
    const signature = forgedSignature(raw, message);
    if (signature) return { message, signature };
  }
}

describe("Ed25519 public keys", () => {
  it("node:crypto verifies a forged signature under each small-order point and the non-canonical ones it reads as such", () => {
    // The premise of the check (and a check of the lists): no private key, yet a signature verifies.
    for (const h of [...SMALL_ORDER_POINTS, ...NON_CANONICAL_POINTS]) expect(forgery(hex(h)).signature, h).toBeInstanceOf(Buffer);
  });

  it("refuses the 8 small-order points, raw and in SPKI form", () => {
    for (const h of SMALL_ORDER_POINTS) {
      expect(ed25519PointProblem(hex(h)), h).toBe("it is a point of small order, for which anyone can forge signatures");
      expect(() => ed25519Key(hex(h)), h).toThrow(InvalidSigningKey);
      expect(() => parseSigningPublicKey(CryptoKeyFormat.Raw, hex(h), SigningKeySpec.EcCurve25519), h).toThrow(/^Invalid Ed25519 public key: it is a point of small order/);
      expect(() => parseSigningPublicKey(CryptoKeyFormat.DerX509SubjectPublicKeyInfo, spkiOf(hex(h)), SigningKeySpec.EcCurve25519), h).toThrow(/small order/);
      // A key stored before the check is refused when read back too.
      expect(() => signingKeyFromSpki("ed25519", spkiOf(hex(h))), h).toThrow(InvalidSigningKey);
    }
  });

  it("refuses non-canonical encodings, a point with a small-order component and a y of no point", () => {
    expect(ed25519PointProblem(hex(NON_CANONICAL_POINTS[0]))).toBe("its encoding is not canonical (y is not below 2^255 - 19)");
    expect(ed25519PointProblem(hex(NON_CANONICAL_POINTS[1]))).toBe("its encoding is not canonical (y is not below 2^255 - 19)");
    expect(ed25519PointProblem(hex(NON_CANONICAL_POINTS[2]))).toBe("its encoding is not canonical (x = 0 with the sign bit set)");
    expect(ed25519PointProblem(hex(NON_CANONICAL_POINTS[3]))).toBe("its encoding is not canonical (x = 0 with the sign bit set)");
    // 2^255 - 1: y = p + 18, and the sign bit.
    expect(ed25519PointProblem(hex("ff".repeat(32)))).toMatch(/not canonical/);
    for (let i = 0; i < 5; i++) expect(ed25519PointProblem(mixedOrderKey())).toBe("it is not in the prime-order subgroup (it has a small-order component)");
    expect(ed25519PointProblem(hex(NOT_ON_CURVE))).toBe("it is not a point of the curve");
    for (const h of [...NON_CANONICAL_POINTS, NOT_ON_CURVE]) expect(() => ed25519Key(hex(h)), h).toThrow(InvalidSigningKey);
  });

  it("accepts real keys: RFC 8032's test keys and fresh ones, which still verify", () => {
    for (const h of ["d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025"]) {
      expect(ed25519PointProblem(hex(h)), h).toBeUndefined();
    }
    for (let i = 0; i < 20; i++) {
      const { publicKey, privateKey } = generateKeyPairSync("ed25519");
      const raw = publicKey.export({ format: "der", type: "spki" }).subarray(12);
      expect(ed25519PointProblem(raw)).toBeUndefined();
      const message = Buffer.from(`m${i}`);
      expect(verifySignature(ed25519Key(raw), message, { format: SignatureFormat.Concat, signature: sign(null, message, privateKey), algorithm: SigningAlgorithmSpec.Ed25519 })).toBe(true);
    }
  });
});

describe("ECDSA P-256 public keys", () => {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const der = publicKey.export({ format: "der", type: "spki" });
  const parse = (d: Uint8Array) => parseSigningPublicKey(CryptoKeyFormat.DerX509SubjectPublicKeyInfo, d, SigningKeySpec.EcP256);

  it("refuses a point not on the curve", () => {
    const offCurve = Buffer.from(der);
    offCurve[offCurve.length - 1] ^= 1;
    expect(() => parse(offCurve)).toThrow(InvalidSigningKey);
    expect(() => parse(offCurve)).toThrow(/^Invalid EC-P256 public key: not a point of the curve/);
  });

  it("refuses the point at infinity without reading its details (node aborted the process on it) and the hybrid form", () => {
    const infinity = Buffer.concat([hex("3019301306072a8648ce3d020106082a8648ce3d030107030200"), Buffer.of(0)]);
    expect(() => parse(infinity)).toThrow(/not the DER X.509 SubjectPublicKeyInfo of a point of the named curve P-256/);
    const hybrid = Buffer.from(der);
    hybrid[26] = 0x06 | (der[der.length - 1] & 1);
    expect(() => parse(hybrid)).toThrow(InvalidSigningKey);
  });

  it("accepts the uncompressed and the compressed point, which verify alike", () => {
    const jwk = publicKey.export({ format: "jwk" });
    const y = Buffer.from(jwk.y!, "base64url");
    const compressed = Buffer.concat([hex("3039301306072a8648ce3d020106082a8648ce3d030107032200"), Buffer.of(2 | (y[31] & 1)), Buffer.from(jwk.x!, "base64url")]);
    const message = Buffer.from("p-256");
    const signature = sign("sha256", message, { key: privateKey, dsaEncoding: "der" });
    for (const d of [der, compressed]) {
      expect(verifySignature(parse(d), message, { format: SignatureFormat.Der, signature, algorithm: SigningAlgorithmSpec.EcDsaSha256 })).toBe(true);
    }
  });
});
