/**
 * A client's public signing key, parsed once at the edge: Ed25519 (raw 32 bytes or its 44-byte
 * X.509 SubjectPublicKeyInfo) or ECDSA P-256 (DER SubjectPublicKeyInfo), the two kinds Canton's
 * external parties use. Anything else is an `InvalidSigningKey` the API answers INVALID_ARGUMENT.
 */
import { createPublicKey, type KeyLike, type KeyObject, type VerifyKeyObjectInput } from "node:crypto";
import { CryptoKeyFormat, SigningKeySpec } from "./crypto-enums.js";
import { ed25519PointProblem } from "./ed25519-point.js";

export type KeyKind = "ed25519" | "ecdsa-p256";

export interface SigningKey {
  readonly kind: KeyKind;
  /** DER X.509 SubjectPublicKeyInfo, the form Canton keeps keys in (and topology carries). */
  readonly spki: Uint8Array;
  /**
   * The bytes the fingerprint is taken over: the raw 32 bytes for Ed25519 (Canton keeps them for
   * backward compatibility even after converting the key to SPKI), the DER bytes for ECDSA.
   */
  readonly fingerprintData: Uint8Array;
  readonly key: KeyObject;
}

/** node:crypto's `verify` arguments for a signature of `key`: the digest, and the key as it takes it. */
export function verifyArgsOf(key: SigningKey): [algorithm: string | null, key: KeyLike | VerifyKeyObjectInput] {
  return key.kind === "ed25519" ? [null, key.key] : ["sha256", { key: key.key, dsaEncoding: "der" }];
}

export class InvalidSigningKey extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidSigningKey";
  }
}

/** The fixed DER header of an Ed25519 SubjectPublicKeyInfo (OID 1.3.101.112, 32-byte bit string). */
export const ED25519_SPKI_PREFIX = Uint8Array.of(0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00);
export const ED25519_KEY_LENGTH = 32;

const startsWith = (b: Uint8Array, prefix: Uint8Array) => b.length >= prefix.length && prefix.every((x, i) => b[i] === x);

/**
 * An Ed25519 key from its raw 32 bytes. Only a point Canton would accept: node:crypto takes any 32
 * bytes, and anyone can forge signatures that node:crypto verifies for a small-order one.
 */
export function ed25519Key(raw: Uint8Array): SigningKey {
  if (raw.length !== ED25519_KEY_LENGTH) {
    throw new InvalidSigningKey(`Invalid Ed25519 public key: expected ${ED25519_KEY_LENGTH} bytes, got ${raw.length}`);
  }
  const problem = ed25519PointProblem(raw);
  if (problem) throw new InvalidSigningKey(`Invalid Ed25519 public key: ${problem}`);
  const spki = new Uint8Array([...ED25519_SPKI_PREFIX, ...raw]);
  return { kind: "ed25519", spki, fingerprintData: Uint8Array.from(raw), key: importSpki(spki) };
}

/** The raw key inside an Ed25519 SubjectPublicKeyInfo. */
function ed25519FromSpki(der: Uint8Array): SigningKey {
  if (der.length !== ED25519_SPKI_PREFIX.length + ED25519_KEY_LENGTH || !startsWith(der, ED25519_SPKI_PREFIX)) {
    throw new InvalidSigningKey(`Invalid Ed25519 public key: not a ${ED25519_SPKI_PREFIX.length + ED25519_KEY_LENGTH}-byte X.509 SubjectPublicKeyInfo (got ${der.length} bytes)`);
  }
  return ed25519Key(der.subarray(ED25519_SPKI_PREFIX.length));
}

/** The DER header of a named-curve P-256 SubjectPublicKeyInfo before its point, and the forms (first byte) a point of that length may take. */
const P256_SPKI = [
  { prefix: Buffer.from("3059301306072a8648ce3d020106082a8648ce3d030107034200", "hex"), pointLength: 65, forms: [0x04] }, // uncompressed: 04, X, Y
  { prefix: Buffer.from("3039301306072a8648ce3d020106082a8648ce3d030107032200", "hex"), pointLength: 33, forms: [0x02, 0x03] }, // compressed: the parity of Y, X
];

const isP256Spki = (der: Uint8Array) =>
  P256_SPKI.some((s) => der.length === s.prefix.length + s.pointLength && startsWith(der, s.prefix) && s.forms.includes(der[s.prefix.length]));

/**
 * Only a point in one of its two forms reaches node:crypto: OpenSSL also imports the point at
 * infinity (a single 0x00), and reading that key's `asymmetricKeyDetails` aborts the process (an
 * assertion in node's GetEcKeyDetail). OpenSSL refuses a point that is not on the curve.
 */
function p256FromSpki(der: Uint8Array): SigningKey {
  if (!isP256Spki(der)) {
    throw new InvalidSigningKey("Invalid EC-P256 public key: not the DER X.509 SubjectPublicKeyInfo of a point of the named curve P-256 (prime256v1), uncompressed or compressed");
  }
  let key;
  try {
    key = createPublicKey({ key: Buffer.from(der), format: "der", type: "spki" });
  } catch (e) {
    throw new InvalidSigningKey(`Invalid EC-P256 public key: not a point of the curve (${(e as Error).message})`);
  }
  return { kind: "ecdsa-p256", spki: Uint8Array.from(der), fingerprintData: Uint8Array.from(der), key };
}

function importSpki(der: Uint8Array): KeyObject {
  try {
    return createPublicKey({ key: Buffer.from(der), format: "der", type: "spki" });
  } catch (e) {
    throw new InvalidSigningKey(`Invalid public key: not a DER X.509 SubjectPublicKeyInfo (${(e as Error).message})`);
  }
}

/**
 * A Ledger API `SigningPublicKey { format, key_data, key_spec }`. Legacy `DER` is read as X.509
 * SPKI, as Canton migrates it; RAW is only defined for Ed25519.
 */
export function parseSigningPublicKey(format: CryptoKeyFormat, keyData: Uint8Array, spec: SigningKeySpec): SigningKey {
  const der = format === CryptoKeyFormat.Der || format === CryptoKeyFormat.DerX509SubjectPublicKeyInfo;
  switch (spec) {
    case SigningKeySpec.EcCurve25519:
      if (format === CryptoKeyFormat.Raw) return ed25519Key(keyData);
      if (der) return ed25519FromSpki(keyData);
      break;
    case SigningKeySpec.EcP256:
      if (der) return p256FromSpki(keyData);
      break;
    case SigningKeySpec.EcP384:
    case SigningKeySpec.EcSecp256k1:
      throw new InvalidSigningKey(`Unsupported signing key specification ${spec}: external parties sign with Ed25519 or ECDSA P-256`);
    default:
      throw new InvalidSigningKey(`Unknown or unspecified signing key specification ${spec}`);
  }
  throw new InvalidSigningKey(`Unsupported key format ${format} for signing key specification ${spec}`);
}

/** A key as the store keeps it (kind and DER SubjectPublicKeyInfo), back into a `SigningKey`. */
export function signingKeyFromSpki(kind: KeyKind, spki: Uint8Array): SigningKey {
  return parseSigningPublicKey(CryptoKeyFormat.DerX509SubjectPublicKeyInfo, spki, kind === "ed25519" ? SigningKeySpec.EcCurve25519 : SigningKeySpec.EcP256);
}
