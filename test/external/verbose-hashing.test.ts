/**
 * Verbose hashing: the trace of the V2 hash in Canton's StringHashTracer format, checked against
 * Canton's own unit-test vectors (NodeHashV1Test / MetadataHashV2Test, tag v3.4.11): node and
 * metadata hashes, their annotated byte lines, and the full hash of a transaction with a create,
 * fetches, an exercise and a rollback. The trace's unindented byte lines hash to the result.
 */
import { createHash } from "node:crypto";
import { fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { PreparedTransactionSchema } from "../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { toHex } from "../../src/external/canton-hash.js";
import {
  preparedTransactionHash,
  tracedPreparedTransactionHash,
  type CreateNode,
  type FetchNode,
  type PreparedTransactionShape,
  type TransactionNode,
  type Value,
} from "../../src/external/prepared-transaction-hash.js";
import { VECTORS } from "./vectors.js";

const id = (moduleName: string, entityName: string, packageId = "package") => ({ packageId, moduleName, entityName });
const text = (s: string): Value => ({ sum: { case: "text", value: s } });
const seed = (h: string) => Buffer.from(h, "hex");
const CID1 = "0007e7b5534931dfca8e1b485c105bae4e10808bd13ddc8e897f258015f9d921c5";
const CID2 = "0059b59ad7a6b6066e77b91ced54b8282f0e24e7089944685cb8f22f32fcbc4e1b";

const create = (contractId: string): CreateNode => ({
  lfVersion: "2.1", contractId, packageName: "package-name-0", templateId: id("module", "name"), argument: text("hello"),
  signatories: ["alice", "bob"], stakeholders: ["alice", "charlie"],
});
const fetch = (contractId: string): FetchNode => ({
  lfVersion: "2.1", contractId, packageName: "package-name-0", templateId: id("module", "name"),
  signatories: ["alice"], stakeholders: ["charlie"], actingParties: ["alice", "bob"],
});
const node = (nodeId: string, nodeType: TransactionNode["versionedNode"] extends infer V ? V extends { case: "v1"; value: { nodeType: infer T } } ? T : never : never): TransactionNode =>
  ({ nodeId, versionedNode: { case: "v1", value: { nodeType } } }) as TransactionNode;

const NODES: TransactionNode[] = [
  node("0", { case: "create", value: create(CID1) }),
  node("1", { case: "create", value: create(CID2) }),
  node("2", { case: "fetch", value: fetch(CID1) }),
  node("3", { case: "fetch", value: fetch(CID2) }),
  node("4", {
    case: "exercise",
    value: {
      ...fetch(CID1), interfaceId: id("interface_module", "interface_name"), choiceId: "choice", chosenValue: { sum: { case: "int64", value: 31380n } },
      consuming: true, children: ["0", "2"], exerciseResult: text("result"), choiceObservers: ["david"],
    },
  }),
  node("5", { case: "rollback", value: { children: ["2", "4"] } }),
];
const SEEDS = [
  "926bbb6f341bc0092ae65d06c6e284024907148cc29543ef6bff0930f5d52c19", "e0c69eae8afb38872fa425c2cdba794176f3b9d97e8eefb7b0e7c831f566458f",
  "4d2a522e9ee44e31b9bef2e3c8a07d43475db87463c6a13c4ea92f898ac8a930", "b4f0534e651ac8d5e10d95ddfcafdb123550a5e3185e3fe61ec1746a7222a88e",
  "a867edafa1277f46f879ab92c373a15c2d75c5d86fec741705cee1eb01ef8c9e", "5483d5df9b245e662c0e4368b8062e8a0fd24c17ce4ded1a0e452e4ee879dd81",
].map((h, nodeId) => ({ nodeId, seed: seed(h) }));

const inputContract = (contractId: string, party: string, createdAt: bigint) => ({
  contract: {
    case: "v1" as const,
    value: {
      lfVersion: "2.1", contractId, packageName: "PkgName", templateId: id("DummyModule", "dummyName", "-dummyPkg-"),
      argument: { sum: { case: "contractId", value: "0097a092402108f5593bac7fb3c909cd316910197dd98d603042a45ab85c81e0fd" } } as Value,
      signatories: [party], stakeholders: [party],
    },
  },
  createdAt,
});

const CANTON_TX: PreparedTransactionShape = {
  transaction: { version: "2.1", roots: ["0", "5"], nodes: NODES, nodeSeeds: SEEDS },
  metadata: {
    submitterInfo: { actAs: ["alice", "bob"], commandId: "command-id" },
    synchronizerId: "synchronizer::id",
    mediatorGroup: 0,
    transactionUuid: "4c6471d3-4e09-49dd-addf-6cd90e19c583",
    preparationTime: 0n,
    minLedgerEffectiveTime: 0xaaaan,
    maxLedgerEffectiveTime: 0xbbbbn,
    inputContracts: [inputContract(CID1, "alice", 864000000000n), inputContract(CID2, "bob", 1728000000000n)],
  },
};

/** Canton's `asByteArray`: the quoted hex of the lines that are not indented. */
function topLevelBytes(trace: string): Buffer {
  const hex = trace.split("\n").filter((l) => !l.startsWith(" ")).map((l) => /^'([0-9a-f]*)'/.exec(l)?.[1] ?? "").join("");
  return Buffer.from(hex, "hex");
}

/** The lines of a nested encoding, unindented by `level`. */
const block = (trace: string, level: number) => trace.split("\n").filter((l) => l.startsWith("  ".repeat(level)) && !l.startsWith("  ".repeat(level + 1))).map((l) => l.slice(level * 2));

describe("verbose hashing trace", () => {
  const { hash, details } = tracedPreparedTransactionHash(CANTON_TX);

  it("gives Canton's full V2 hash, and the same bytes as the untraced hash", () => {
    expect(toHex(hash)).toBe("8c311c848db25d36b36fbd59f9483714a11688c2214e3c7cae3e028763520250");
    expect(toHex(preparedTransactionHash(CANTON_TX))).toBe(toHex(hash));
  });

  it("top level: purpose, scheme version, Canton's transaction and metadata hashes; its bytes hash to the result", () => {
    expect(block(details, 0).filter((l) => l.startsWith("'"))).toEqual([
      "'00000030' # Hash Purpose",
      "'02' # 02 (Hashing Scheme Version)",
      "'154f334d24a8a5e4d0ce51ac87d93821b3256f885f21d3f779a1640abf481983' # Transaction",
      "'6e89fcbcc9605179a47919b5e65a864e470e7a133f4f9f39b1e4545b223db769' # Metadata",
    ]);
    expect(createHash("sha256").update(topLevelBytes(details)).digest("hex")).toBe(toHex(hash));
    expect(details.trimEnd().split("\n").at(-1)).toBe(`# Prepared Transaction Hash: ${toHex(hash)}`);
  });

  it("node hashes are Canton's (create, fetch, exercise, rollback)", () => {
    const inner = details.split("\n").filter((l) => l.endsWith("# (Hashed Inner Node)")).map((l) => l.trim().slice(1, 65));
    for (const h of [
      "6d2cfe58c2294000592034f4bdfe397fe246901bb8b63e3b9e041bb478e174b7",
      "c962c6098394f3d11cd6f0c795de9517d32a8e3e1979cec76cd2f66254efc610",
      "070970eb4b2de72561dafb67017ca33850650a8103e5134e16044ba78991f48c",
      "7264d5da2fd714427453bedc0d1cdb21f52ac7aec8d4bb5ac0598d25c5fcaed9",
    ]) expect(inner).toContain(h);
  });

  it("a create node's lines are Canton's, word for word", () => {
    const start = details.indexOf("    '01' # 01 (Node Encoding Version)\n    # Create Node");
    const lines = details.slice(start).split("\n").map((l) => l.slice(4));
    expect(lines.slice(0, 38).join("\n")).toBe(
      `'01' # 01 (Node Encoding Version)
# Create Node
# Node Version
'00000003' # 3 (int)
'322e31' # 2.1 (string)
'00' # Create Node Tag
# Node Seed
'01' # Some
'926bbb6f341bc0092ae65d06c6e284024907148cc29543ef6bff0930f5d52c19' # node seed
# Contract Id
'00000021' # 33 (int)
'${CID1}' # ${CID1} (contractId)
# Package Name
'0000000e' # 14 (int)
'7061636b6167652d6e616d652d30' # package-name-0 (string)
# Template Id
'00000007' # 7 (int)
'7061636b616765' # package (string)
'00000001' # 1 (int)
'00000006' # 6 (int)
'6d6f64756c65' # module (string)
'00000001' # 1 (int)
'00000004' # 4 (int)
'6e616d65' # name (string)
# Arg
'07' # Text Type Tag
'00000005' # 5 (int)
'68656c6c6f' # hello (string)
# Signatories
'00000002' # 2 (int)
'00000005' # 5 (int)
'616c696365' # alice (string)
'00000003' # 3 (int)
'626f62' # bob (string)
# Stakeholders
'00000002' # 2 (int)
'00000005' # 5 (int)
'616c696365' # alice (string)`,
    );
  });

  it("the metadata's lines are Canton's (input contracts nested, then their hashes)", () => {
    const md = block(details.slice(details.indexOf("  '00000030' # Hash Purpose\n  '01' # 01 (Metadata Encoding Version)")), 1);
    expect(md.slice(0, 8)).toEqual([
      "'00000030' # Hash Purpose",
      "'01' # 01 (Metadata Encoding Version)",
      "# Act As Parties",
      "'00000002' # 2 (int)",
      "'00000005' # 5 (int)",
      "'616c696365' # alice (string)",
      "'00000003' # 3 (int)",
      "'626f62' # bob (string)",
    ]);
    expect(md).toContain("'000000000000aaaa' # 43690 (long)");
    expect(md).toContain("'f6bb13796130c23e43c952b86b1583032be325dc40072c02a0279069fc3656c1' # Disclosed Contract");
    expect(md).toContain("'010ee30a2b17bd729bc5ccada01a62bfb7283641610feb5913fb46b2972368a4' # Disclosed Contract");
  });

  it("the public prepared-transaction vector traces to its expected hash", () => {
    const tx = fromBinary(PreparedTransactionSchema, Buffer.from(VECTORS.preparedTransaction.base64, "base64"));
    const traced = tracedPreparedTransactionHash(tx);
    expect(toHex(traced.hash)).toBe(VECTORS.preparedTransaction.expectedHashHex);
    expect(createHash("sha256").update(topLevelBytes(traced.details)).digest("hex")).toBe(VECTORS.preparedTransaction.expectedHashHex);
  });
});
