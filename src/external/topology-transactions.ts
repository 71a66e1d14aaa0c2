/**
 * The three topology transactions that create an external party, serialized as Canton does
 * (`protocol/v30/topology.proto` inside a `version.v1.UntypedVersionedMessage` of version 30), their
 * hashes (purpose 11, over the versioned bytes) and the multi-transaction hash the party signs
 * once for all of them (purpose 55). Clients sign hashes of the bytes they receive, so what we
 * generate is what we later read back with `readTopologyTransaction`.
 */
import { cantonHash, HashPurpose, int32be, concatBytes, toHex } from "./canton-hash.js";
import { pb, readFields, MalformedProto, type WireField } from "./proto-bytes.js";
import type { SigningKey } from "./signing-key.js";

/** Proto version of topology messages for protocol versions 33 and 34. */
const PROTO_VERSION = 30;
const ADD_REPLACE = 1;
/** `crypto.v30.CryptoKeyFormat.DER_X509_SUBJECT_PUBLIC_KEY_INFO` (4 in this family, 3 on the Ledger API). */
const V30_DER_X509_SPKI = 4;
/** `crypto.v30.SigningKeyUsage`: Namespace 1, ProofOfOwnership 5, Protocol 4, in the order Canton's
 * Ledger API generator writes them (observed in the wallet SDK's decoded samples). */
const KEY_USAGE = [1, 5, 4] as const;
/** `crypto.v30.SigningKeySpec` (same numbers as the Ledger API's). */
const KEY_SPEC: Record<SigningKey["kind"], number> = { ed25519: 1, "ecdsa-p256": 2 };

/** Mapping fields of `TopologyMapping`'s oneof. */
const MAPPING = { namespaceDelegation: 1, partyToParticipant: 9, partyToKeyMapping: 16 } as const;

/** `topology.v30.Enums.ParticipantPermission`. */
export const ParticipantPermission = { Submission: 1, Confirmation: 2, Observation: 3 } as const;
export type ParticipantPermission = (typeof ParticipantPermission)[keyof typeof ParticipantPermission];

export interface HostingParticipant {
  /** Participant UID `name::1220…` (no `PAR::` prefix). */
  readonly uid: string;
  readonly permission: ParticipantPermission;
}

function signingPublicKey(key: Pick<SigningKey, "kind" | "spki">): Uint8Array {
  return pb.encode(pb.varint(2, V30_DER_X509_SPKI), pb.bytes(3, key.spki), pb.packedVarints(5, KEY_USAGE), pb.varint(6, KEY_SPEC[key.kind]));
}

/** A root delegation of `namespace` to `key`, restricted to nothing (`can_sign_all_mappings {}`). */
export function namespaceDelegation(namespace: string, key: Pick<SigningKey, "kind" | "spki">): Uint8Array {
  return pb.encode(pb.string(1, namespace), pb.message(2, signingPublicKey(key)), pb.message(4, new Uint8Array()));
}

export function partyToParticipant(party: string, threshold: number, participants: readonly HostingParticipant[]): Uint8Array {
  return pb.encode(pb.string(1, party), pb.varint(2, threshold), ...participants.map((p) => pb.message(3, pb.encode(pb.string(1, p.uid), pb.varint(2, p.permission)))));
}

export function partyToKeyMapping(party: string, threshold: number, keys: readonly Pick<SigningKey, "kind" | "spki">[]): Uint8Array {
  return pb.encode(pb.string(1, party), pb.varint(3, threshold), ...keys.map((k) => pb.message(4, signingPublicKey(k))));
}

/** A serial-1 ADD_REPLACE transaction of one mapping, in its versioned envelope. */
export function topologyTransaction(mappingField: number, mapping: Uint8Array, serial = 1): Uint8Array {
  const tx = pb.encode(pb.varint(1, ADD_REPLACE), pb.varint(2, serial), pb.message(3, pb.encode(pb.message(mappingField, mapping))));
  return pb.encode(pb.bytes(1, tx), pb.varint(2, PROTO_VERSION));
}

export const topologyTransactionOf = {
  namespaceDelegation: (namespace: string, key: Pick<SigningKey, "kind" | "spki">) => topologyTransaction(MAPPING.namespaceDelegation, namespaceDelegation(namespace, key)),
  partyToParticipant: (party: string, threshold: number, participants: readonly HostingParticipant[]) =>
    topologyTransaction(MAPPING.partyToParticipant, partyToParticipant(party, threshold, participants)),
  partyToKeyMapping: (party: string, threshold: number, keys: readonly Pick<SigningKey, "kind" | "spki">[]) =>
    topologyTransaction(MAPPING.partyToKeyMapping, partyToKeyMapping(party, threshold, keys)),
};

/** The 34-byte hash a signer of one topology transaction signs. */
export const topologyTransactionHash = (versioned: Uint8Array): Uint8Array => cantonHash(HashPurpose.TopologyTransactionSignature, versioned);

/**
 * One hash over several topology transactions: their distinct hashes sorted by hex, each
 * length-prefixed, behind their count.
 */
export function multiTransactionHash(hashes: readonly Uint8Array[]): Uint8Array {
  const distinct = [...new Map(hashes.map((h) => [toHex(h), h])).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, h]) => h);
  const combined = concatBytes(int32be(distinct.length), ...distinct.flatMap((h) => [int32be(h.length), h]));
  return cantonHash(HashPurpose.MultiTopologyTransaction, combined);
}

// ---- reading back ------------------------------------------------------------------------------

export interface TopologyKey {
  readonly format: number;
  readonly publicKey: Uint8Array;
  readonly usage: readonly number[];
  readonly keySpec: number;
}

export type TopologyMapping =
  | { readonly kind: "namespace-delegation"; readonly namespace: string; readonly targetKey: TopologyKey; readonly canSignAllMappings: boolean }
  | { readonly kind: "party-to-participant"; readonly party: string; readonly threshold: number; readonly participants: readonly HostingParticipant[] }
  | { readonly kind: "party-to-key-mapping"; readonly party: string; readonly threshold: number; readonly keys: readonly TopologyKey[] }
  | { readonly kind: "other"; readonly field: number };

export interface ReadTopologyTransaction {
  readonly operation: number;
  readonly serial: number;
  readonly mapping: TopologyMapping;
}

/** The last occurrence of field `n` (protobuf's rule for a repeated singular field). */
const lastOf = (fs: WireField[], n: number): WireField | undefined => fs.filter((x) => x.field === n).pop();
const bytesOf = (fs: WireField[], n: number): Uint8Array | undefined => {
  const f = lastOf(fs, n);
  if (f && !("bytes" in f)) throw new MalformedProto(`field ${n} is not length-delimited`);
  return f?.bytes;
};
const allBytes = (fs: WireField[], n: number): Uint8Array[] =>
  fs.filter((x) => x.field === n).map((f) => {
    if (!("bytes" in f)) throw new MalformedProto(`field ${n} is not length-delimited`);
    return f.bytes;
  });
const numberOf = (fs: WireField[], n: number): number => {
  const f = lastOf(fs, n);
  if (f && !("varint" in f)) throw new MalformedProto(`field ${n} is not a varint`);
  return f ? Number(BigInt.asUintN(32, f.varint)) : 0;
};
const text = (b: Uint8Array | undefined) => new TextDecoder("utf-8", { fatal: true }).decode(b ?? new Uint8Array());

function readKey(b: Uint8Array): TopologyKey {
  const fs = readFields(b);
  return { format: numberOf(fs, 2), publicKey: bytesOf(fs, 3) ?? new Uint8Array(), usage: usageOf(fs), keySpec: numberOf(fs, 6) };
}

/** `usage` (field 5), packed or not. */
function usageOf(fs: WireField[]): number[] {
  const out: number[] = [];
  for (const f of fs) {
    if (f.field !== 5) continue;
    if ("varint" in f) {
      out.push(Number(f.varint));
      continue;
    }
    // Packed: usages are small enum values, one byte each.
    for (const byte of f.bytes) {
      if (byte & 0x80) throw new MalformedProto("key usage out of range");
      out.push(byte);
    }
  }
  return out;
}

/** A versioned topology transaction as a client sent it back; `MalformedProto` if it is not one. */
export function readTopologyTransaction(versioned: Uint8Array): ReadTopologyTransaction {
  const envelope = readFields(versioned);
  const version = numberOf(envelope, 2);
  if (version !== PROTO_VERSION) throw new MalformedProto(`unsupported topology transaction proto version ${version}`);
  const tx = readFields(bytesOf(envelope, 1) ?? new Uint8Array());
  const mappingFields = readFields(bytesOf(tx, 3) ?? new Uint8Array());
  if (mappingFields.length !== 1 || !("bytes" in mappingFields[0])) throw new MalformedProto("the topology transaction holds no mapping");
  const { field, bytes } = mappingFields[0];
  const m = readFields(bytes);
  const mapping: TopologyMapping =
    field === MAPPING.namespaceDelegation
      ? { kind: "namespace-delegation", namespace: text(bytesOf(m, 1)), targetKey: readKey(bytesOf(m, 2) ?? new Uint8Array()), canSignAllMappings: bytesOf(m, 4) !== undefined }
      : field === MAPPING.partyToParticipant
        ? {
            kind: "party-to-participant",
            party: text(bytesOf(m, 1)),
            threshold: numberOf(m, 2),
            participants: allBytes(m, 3).map((p) => {
              const pf = readFields(p);
              return { uid: text(bytesOf(pf, 1)), permission: numberOf(pf, 2) as ParticipantPermission };
            }),
          }
        : field === MAPPING.partyToKeyMapping
          ? { kind: "party-to-key-mapping", party: text(bytesOf(m, 1)), threshold: numberOf(m, 3), keys: allBytes(m, 4).map(readKey) }
          : { kind: "other", field };
  return { operation: numberOf(tx, 1), serial: numberOf(tx, 2), mapping };
}
