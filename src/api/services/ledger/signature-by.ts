/** A Ledger API `Signature` as the external layer checks it (the same fields, the algorithm renamed). */
import type { Signature } from "../../../../gen/com/daml/ledger/api/v2/crypto_pb.js";
import type { SignatureBy } from "../../../external/onboarding-check.js";

export const signatureBy = (s: Signature): SignatureBy => ({ format: s.format, signature: s.signature, algorithm: s.signingAlgorithmSpec, signedBy: s.signedBy });
