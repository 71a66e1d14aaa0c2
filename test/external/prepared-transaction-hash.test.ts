/**
 * Hashing scheme V2: the public vector (the wallet SDK's prepared TransferPreapprovalProposal
 * create), decoded with our generated schema, hashes to the expected 32 bytes; changes to what is
 * signed change the hash, to what is not signed do not (its cost, linear in size, is in bench/external).
 */
import { clone, fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { PreparedTransactionSchema, type PreparedTransaction } from "../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { toHex } from "../../src/external/canton-hash.js";
import { preparedTransactionHash, UnhashableTransaction } from "../../src/external/prepared-transaction-hash.js";
import { VECTORS } from "./vectors.js";

const V = VECTORS.preparedTransaction;
const decoded = () => fromBinary(PreparedTransactionSchema, Buffer.from(V.base64, "base64"));

describe("prepared-transaction hash V2", () => {
  it("reproduces the public vector exactly", () => {
    const tx = decoded();
    expect(tx.transaction?.nodes).toHaveLength(1);
    expect(tx.metadata?.submitterInfo?.actAs).toEqual(["bob::12205be3b9d177573fffb68eb245986f88b9df58d44ce575819078970580d87d1dc0"]);
    const hash = preparedTransactionHash(tx);
    expect(toHex(hash)).toBe(V.expectedHashHex);
    expect(Buffer.from(hash).toString("base64")).toBe(V.expectedHashBase64);
  });

  it("gives the same hash however often and between whatever other hashes it is computed (writers are reused)", () => {
    const other = clone(PreparedTransactionSchema, decoded());
    other.metadata!.submitterInfo!.commandId = "x".repeat(5000) + "é"; // grows a writer past its first buffer
    const otherHash = toHex(preparedTransactionHash(other));
    const hashes = Array.from({ length: 40 }, (_, i) => toHex(preparedTransactionHash(i % 3 === 0 ? other : decoded())));
    expect(hashes.filter((h, i) => h !== (i % 3 === 0 ? otherHash : V.expectedHashHex))).toEqual([]);
    expect(otherHash).not.toBe(V.expectedHashHex);
  });

  it("covers what is signed, not what is not (max record time, key mappings)", () => {
    const base = toHex(preparedTransactionHash(decoded()));
    const edits: [string, (t: PreparedTransaction) => void, boolean][] = [
      ["the command id", (t) => (t.metadata!.submitterInfo!.commandId += "x"), true],
      ["the preparation time", (t) => (t.metadata!.preparationTime += 1n), true],
      ["a min ledger effective time of 0 (presence counts)", (t) => (t.metadata!.minLedgerEffectiveTime = 0n), true],
      ["the node seed", (t) => (t.transaction!.nodeSeeds[0].seed[0] ^= 1), true],
      ["one more signatory", (t) => (t.transaction!.nodes[0].versionedNode.value as { nodeType: { value: { signatories: string[] } } }).nodeType.value.signatories.push("carol::1220"), true],
      ["the node id (opaque)", (t) => {
        t.transaction!.nodes[0].nodeId = "7";
        t.transaction!.roots = ["7"];
        t.transaction!.nodeSeeds[0].nodeId = 7;
      }, false],
      ["the max record time (V3 only)", (t) => (t.metadata!.maxRecordTime = 123n), false],
    ];
    for (const [what, edit, changes] of edits) {
      const t = clone(PreparedTransactionSchema, decoded());
      edit(t);
      expect(toHex(preparedTransactionHash(t)) !== base, what).toBe(changes);
    }
  });

  it("refuses what V2 cannot hash", () => {
    const cases: [string, (t: PreparedTransaction) => void, RegExp][] = [
      ["an unknown root", (t) => (t.transaction!.roots = ["9"]), /unknown node id 9/],
      ["LF version 2.dev", (t) => (t.transaction!.version = "2.dev"), /unsupported LF serialization version/],
      ["no metadata", (t) => (t.metadata = undefined), /missing metadata/],
      ["a short seed", (t) => (t.transaction!.nodeSeeds[0].seed = new Uint8Array(31)), /31 bytes/],
    ];
    for (const [what, edit, message] of cases) {
      const t = clone(PreparedTransactionSchema, decoded());
      edit(t);
      expect(() => preparedTransactionHash(t), what).toThrow(UnhashableTransaction);
      expect(() => preparedTransactionHash(t), what).toThrow(message);
    }
  });
});
