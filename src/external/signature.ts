/**
 * Signature checks with node:crypto. Ed25519 is pure RFC 8032 over the message, 64 bytes `R || S`
 * (format CONCAT, or the deprecated RAW that Canton migrates to CONCAT). ECDSA P-256 is SHA-256
 * over the message, DER-encoded (format DER, or RAW migrated to DER). A signature whose format,
 * algorithm or length cannot belong to the key is an `InvalidSignatureInput`, distinct from one
 * that is well-formed but does not verify (`verifySignature` → false).
 */
import { verify } from "node:crypto";
import { SignatureFormat, SigningAlgorithmSpec } from "./crypto-enums.js";
import { hasIdentityR } from "./ed25519-point.js";
import { verifyOffLoop } from "./signature-worker.js";
import { verifyArgsOf, type SigningKey } from "./signing-key.js";

export interface ClientSignature {
  readonly format: SignatureFormat;
  readonly signature: Uint8Array;
  readonly algorithm: SigningAlgorithmSpec;
}

export class InvalidSignatureInput extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidSignatureInput";
  }
}

export const ED25519_SIGNATURE_LENGTH = 64;
/** Longest DER ECDSA P-256 signature: SEQUENCE of two INTEGERs of up to 33 bytes each. */
const MAX_P256_DER_LENGTH = 72;

/** The algorithm a signature claims; unspecified means the key's only one. */
function algorithmFor(key: SigningKey, claimed: SigningAlgorithmSpec): SigningAlgorithmSpec {
  const own = key.kind === "ed25519" ? SigningAlgorithmSpec.Ed25519 : SigningAlgorithmSpec.EcDsaSha256;
  if (claimed !== SigningAlgorithmSpec.Unspecified && claimed !== own) {
    throw new InvalidSignatureInput(`Signing algorithm ${claimed} is not supported by a ${key.kind === "ed25519" ? "EC-Curve25519" : "EC-P256"} key`);
  }
  return own;
}

/** Throws `InvalidSignatureInput` when the signature cannot be one of `key`'s. */
export function checkSignatureShape(key: SigningKey, sig: ClientSignature): void {
  algorithmFor(key, sig.algorithm);
  if (key.kind === "ed25519") {
    if (sig.format !== SignatureFormat.Concat && sig.format !== SignatureFormat.Raw) {
      throw new InvalidSignatureInput(`Signature format ${sig.format} is not supported for Ed25519 (use SIGNATURE_FORMAT_CONCAT)`);
    }
    if (sig.signature.length !== ED25519_SIGNATURE_LENGTH) {
      throw new InvalidSignatureInput(`Invalid Ed25519 signature: expected ${ED25519_SIGNATURE_LENGTH} bytes, got ${sig.signature.length}`);
    }
    return;
  }
  if (sig.format !== SignatureFormat.Der && sig.format !== SignatureFormat.Raw) {
    throw new InvalidSignatureInput(`Signature format ${sig.format} is not supported for ECDSA (use SIGNATURE_FORMAT_DER)`);
  }
  if (sig.signature.length < 8 || sig.signature.length > MAX_P256_DER_LENGTH || sig.signature[0] !== 0x30) {
    throw new InvalidSignatureInput(`Invalid ECDSA signature: not a DER-encoded P-256 signature (${sig.signature.length} bytes)`);
  }
}

/** Whether `sig` is `key`'s signature of `message` (after `checkSignatureShape`). */
export function verifySignature(key: SigningKey, message: Uint8Array, sig: ClientSignature): boolean {
  checkSignatureShape(key, sig);
  if (key.kind === "ed25519" && hasIdentityR(sig.signature)) return false;
  const [algorithm, input] = verifyArgsOf(key);
  try {
    return verify(algorithm, message, input, sig.signature);
  } catch {
    // OpenSSL refuses some malformed DER outright; that is a signature that does not verify.
    return false;
  }
}

/**
 * `verifySignature` off the event loop (an Ed25519 check costs ~60 µs of CPU, which an execute
 * should not spend on the loop that serves every other request); see signature-worker.ts.
 */
export async function verifySignatureOffLoop(key: SigningKey, message: Uint8Array, sig: ClientSignature): Promise<boolean> {
  checkSignatureShape(key, sig);
  return verifyOffLoop(key, message, sig.signature);
}
