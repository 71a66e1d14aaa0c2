/**
 * The Ledger API's crypto enum numbers (`com.daml.ledger.api.v2` crypto.proto, Canton 3.4), so the
 * API layer passes request values through unchanged. Canton's protocol/admin family
 * (`crypto.v30`) numbers `CryptoKeyFormat` differently (DER 2, RAW 3, DER_X509_SPKI 4): the
 * topology transactions we serialize use that family, see `topology-transactions.ts`.
 */

export const CryptoKeyFormat = { Unspecified: 0, Der: 1, Raw: 2, DerX509SubjectPublicKeyInfo: 3 } as const;
export type CryptoKeyFormat = number;

export const SigningKeySpec = { Unspecified: 0, EcCurve25519: 1, EcP256: 2, EcP384: 3, EcSecp256k1: 4 } as const;
export type SigningKeySpec = number;

export const SignatureFormat = { Unspecified: 0, Raw: 1, Der: 2, Concat: 3, Symbolic: 10000 } as const;
export type SignatureFormat = number;

export const SigningAlgorithmSpec = { Unspecified: 0, Ed25519: 1, EcDsaSha256: 2, EcDsaSha384: 3 } as const;
export type SigningAlgorithmSpec = number;
