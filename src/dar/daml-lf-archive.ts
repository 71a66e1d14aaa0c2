/**
 * The Daml-LF `Archive` envelope of a `.dalf` (com.daml.daml_lf_dev.Archive): `hash_function` = 1
 * (0 = SHA256, the only one), `payload` = 3 (the serialized package), `hash` = 4 (its package id).
 * Only the envelope is read; the package inside is kept as bytes and never interpreted here.
 */
import { createHash } from "node:crypto";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { errors } from "../ledger/errors.js";

export interface DamlLfArchive {
  /** The package id: lowercase hex SHA-256 of `payload`. */
  readonly hash: string;
  readonly payload: Uint8Array;
}

const SHA256 = 0;

/** Decodes and checks one archive; DAR_PARSE_ERROR for anything Canton's decoder would refuse. */
export function decodeArchive(bytes: Uint8Array, entry: string): DamlLfArchive {
  let hashFunction = SHA256;
  let payload: Uint8Array | undefined;
  let hash = "";
  try {
    const reader = new BinaryReader(bytes);
    while (reader.pos < reader.len) {
      const [field, wireType] = reader.tag();
      if (field === 1 && wireType === WireType.Varint) hashFunction = reader.int32();
      else if (field === 3 && wireType === WireType.LengthDelimited) payload = reader.bytes();
      else if (field === 4 && wireType === WireType.LengthDelimited) hash = reader.string();
      else reader.skip(wireType, field);
    }
  } catch (e) {
    throw errors.darParseError(`${entry}: not a Daml-LF archive (${(e as Error).message})`);
  }
  if (hashFunction !== SHA256) throw errors.darParseError(`${entry}: unsupported hash function ${hashFunction}`);
  if (!payload || payload.length === 0) throw errors.darParseError(`${entry}: the archive has no payload`);
  const actual = createHash("sha256").update(payload).digest("hex");
  // Canton recomputes the hash and refuses an archive whose declared package id differs.
  if (hash !== actual) throw errors.darParseError(`${entry}: Mismatching hashes! Expected ${JSON.stringify(hash)} but got ${actual}`);
  return { hash, payload };
}
