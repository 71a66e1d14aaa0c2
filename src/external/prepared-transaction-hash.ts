/**
 * Hashing scheme V2 of Canton 3.3/3.4 for a PreparedTransaction (reference §3.4): every node is
 * hashed once (memoized by id, so the whole hash is linear in the transaction's size), the
 * transaction hash covers the roots, the metadata hash the submitter, synchronizer, times and the
 * input contracts (hashed as seedless creates), and the final 32 bytes — what external parties
 * sign — cover both behind the purpose and the scheme version.
 *
 * The types below are the shape of the protobuf-es messages of
 * `com.daml.ledger.api.v2.interactive` (structurally, so this layer needs no protobuf runtime):
 * pass a decoded `PreparedTransaction` as is. Presence matters: an absent optional is `undefined`.
 */
import { concatBytes, int32be, sha256, HashPurpose } from "./canton-hash.js";
import { HashWriter } from "./hash-writer.js";
import { hexBytes, identifier, required, strings, UnhashableTransaction, value, type Identifier, type Value } from "./hash-value.js";
import { traceWithResult, TracingHashWriter } from "./tracing-hash-writer.js";

export { UnhashableTransaction, type Identifier, type Value } from "./hash-value.js";

export interface CreateNode {
  readonly lfVersion: string;
  readonly contractId: string;
  readonly packageName: string;
  readonly templateId?: Identifier;
  readonly argument?: Value;
  readonly signatories: readonly string[];
  readonly stakeholders: readonly string[];
}

export interface FetchNode {
  readonly lfVersion: string;
  readonly contractId: string;
  readonly packageName: string;
  readonly templateId?: Identifier;
  readonly signatories: readonly string[];
  readonly stakeholders: readonly string[];
  readonly actingParties: readonly string[];
  readonly interfaceId?: Identifier;
}

export interface ExerciseNode extends FetchNode {
  readonly choiceId: string;
  readonly chosenValue?: Value;
  readonly consuming: boolean;
  readonly children: readonly string[];
  readonly exerciseResult?: Value;
  readonly choiceObservers: readonly string[];
}

export interface TransactionNode {
  readonly nodeId: string;
  readonly versionedNode:
    | {
        readonly case: "v1";
        readonly value: {
          readonly nodeType:
            | { readonly case: "create"; readonly value: CreateNode }
            | { readonly case: "fetch"; readonly value: FetchNode }
            | { readonly case: "exercise"; readonly value: ExerciseNode }
            | { readonly case: "rollback"; readonly value: { readonly children: readonly string[] } }
            | { readonly case: undefined; readonly value?: undefined };
        };
      }
    | { readonly case: undefined; readonly value?: undefined };
}

export interface PreparedTransactionShape {
  readonly transaction?: {
    readonly version: string;
    readonly roots: readonly string[];
    readonly nodes: readonly TransactionNode[];
    readonly nodeSeeds: readonly { readonly nodeId: number; readonly seed: Uint8Array }[];
  };
  readonly metadata?: {
    readonly submitterInfo?: { readonly actAs: readonly string[]; readonly commandId: string };
    readonly synchronizerId: string;
    readonly mediatorGroup: number;
    readonly transactionUuid: string;
    readonly preparationTime: bigint;
    readonly inputContracts: readonly {
      readonly contract: { readonly case: "v1"; readonly value: CreateNode } | { readonly case: undefined; readonly value?: undefined };
      readonly createdAt: bigint;
    }[];
    readonly minLedgerEffectiveTime?: bigint;
    readonly maxLedgerEffectiveTime?: bigint;
  };
}

const PURPOSE = int32be(HashPurpose.PreparedSubmission);
const NODE_ENCODING_V1 = 0x01;
const METADATA_ENCODING_V1 = 0x01;
const HASHING_SCHEME_V2 = 0x02;
/** The only LF serialization version hashing scheme V2 accepts. */
export const V2_LF_VERSION = "2.1";

const NODE_TAG = { create: 0x00, exercise: 0x01, fetch: 0x02, rollback: 0x03 } as const;
/** The node encoding's header: encoding version, LF version, tag (Canton's trace order). */
function nodeHeader(w: HashWriter, kind: string, lfVersion: string, tag: number): void {
  w.byte(NODE_ENCODING_V1, "01 (Node Encoding Version)");
  w.context(`${kind} Node`);
  w.context("Node Version");
  w.string(checkVersion(lfVersion));
  w.byte(tag, `${kind} Node Tag`);
}

/** Contract id, package name and template id, which every node but a rollback starts with. */
function contractHeader(w: HashWriter, n: { readonly contractId: string; readonly packageName: string; readonly templateId?: Identifier }): void {
  w.context("Contract Id");
  w.bytes(hexBytes(n.contractId, "contract id"), "contractId");
  w.context("Package Name");
  w.string(n.packageName);
  w.context("Template Id");
  identifier(w, required(n.templateId, "template id"));
}

function parties(w: HashWriter, what: string, xs: readonly string[]): void {
  w.context(what);
  strings(w, xs);
}

/** The encoding of a create, as a node (with its seed, if any) or as an input contract (no seed), in `w`. */
function createBytes(w: HashWriter, c: CreateNode, seed: Uint8Array | undefined): Uint8Array {
  nodeHeader(w, "Create", c.lfVersion, NODE_TAG.create);
  w.context("Node Seed");
  w.optional(seed, (s) => w.raw(s, "node seed"));
  contractHeader(w, c);
  w.context("Arg");
  value(w, required(c.argument, "create argument"));
  parties(w, "Signatories", c.signatories);
  parties(w, "Stakeholders", c.stakeholders);
  return w.digest();
}

function checkVersion(v: string): string {
  if (v !== V2_LF_VERSION) throw new UnhashableTransaction(`unsupported LF serialization version ${JSON.stringify(v)} (hashing scheme V2 takes ${V2_LF_VERSION})`);
  return v;
}

/** Hashes of the nodes of one transaction, each computed once on first reference. */
class NodeHasher {
  private readonly nodes = new Map<string, TransactionNode>();
  private readonly seeds = new Map<string, Uint8Array>();
  private readonly hashes = new Map<string, Uint8Array>();
  /** Node ids being hashed, to refuse a node that is its own descendant. */
  private readonly open = new Set<string>();

  constructor(tx: NonNullable<PreparedTransactionShape["transaction"]>) {
    for (const n of tx.nodes) {
      if (this.nodes.has(n.nodeId)) throw new UnhashableTransaction(`duplicate node id ${n.nodeId}`);
      this.nodes.set(n.nodeId, n);
    }
    for (const s of tx.nodeSeeds) {
      if (s.seed.length !== 32) throw new UnhashableTransaction(`seed of node ${s.nodeId} is ${s.seed.length} bytes, not 32`);
      this.seeds.set(String(s.nodeId), s.seed);
    }
  }

  /** The node's hash; `parent` is the writer that will take it (its `sub` traces the node). */
  hash(id: string, parent: HashWriter): Uint8Array {
    const known = this.hashes.get(id);
    if (known) return known;
    if (this.open.has(id)) throw new UnhashableTransaction(`node ${id} is its own descendant`);
    const node = this.nodes.get(id);
    if (!node) throw new UnhashableTransaction(`unknown node id ${id}`);
    this.open.add(id);
    const h = this.encode(id, node, parent.sub());
    this.open.delete(id);
    this.hashes.set(id, h);
    return h;
  }

  private children(w: HashWriter, what: string, ids: readonly string[]): void {
    w.context(what);
    w.list(ids, (c) => w.raw(this.hash(c, w), "(Hashed Inner Node)"));
  }

  private encode(id: string, node: TransactionNode, w: HashWriter): Uint8Array {
    if (node.versionedNode.case !== "v1") throw new UnhashableTransaction(`node ${id} has no v1 encoding`);
    const t = node.versionedNode.value.nodeType;
    switch (t.case) {
      case "create":
        return createBytes(w, t.value, this.seeds.get(id));
      case "exercise": {
        const e = t.value;
        nodeHeader(w, "Exercise", e.lfVersion, NODE_TAG.exercise);
        w.context("Node Seed");
        w.raw(required(this.seeds.get(id), `seed of exercise node ${id}`), "seed");
        contractHeader(w, e);
        parties(w, "Signatories", e.signatories);
        parties(w, "Stakeholders", e.stakeholders);
        parties(w, "Acting Parties", e.actingParties);
        w.context("Interface Id");
        w.optional(e.interfaceId, (i) => identifier(w, i));
        w.context("Choice Id");
        w.string(e.choiceId);
        w.context("Chosen Value");
        value(w, required(e.chosenValue, "choice argument"));
        w.context("Consuming");
        w.bool(e.consuming);
        w.context("Exercise Result");
        w.optional(e.exerciseResult, (r) => value(w, r));
        parties(w, "Choice Observers", e.choiceObservers);
        this.children(w, "Children", e.children);
        return w.digest();
      }
      case "fetch": {
        const f = t.value;
        nodeHeader(w, "Fetch", f.lfVersion, NODE_TAG.fetch);
        contractHeader(w, f);
        parties(w, "Signatories", f.signatories);
        parties(w, "Stakeholders", f.stakeholders);
        // Unlike an exercise, a fetch has the interface before the acting parties.
        w.context("Interface Id");
        w.optional(f.interfaceId, (i) => identifier(w, i));
        parties(w, "Acting Parties", f.actingParties);
        return w.digest();
      }
      case "rollback":
        w.byte(NODE_ENCODING_V1, "01 (Node Encoding Version)");
        w.context("Rollback Node");
        w.byte(NODE_TAG.rollback, "Rollback Node Tag");
        this.children(w, "Children", t.value.children);
        return w.digest();
      default:
        throw new UnhashableTransaction(`node ${id} has no content`);
    }
  }
}

/** The transaction hash; `parent` (when tracing) is the writer of the final hash. */
export function transactionHash(tx: NonNullable<PreparedTransactionShape["transaction"]>, parent?: HashWriter): Uint8Array {
  checkVersion(tx.version);
  const nodes = new NodeHasher(tx);
  const w = parent ? parent.sub() : HashWriter.create();
  w.raw(PURPOSE, "Hash Purpose");
  w.context("Serialization Version");
  w.string(tx.version);
  w.context("Root Nodes");
  w.list(tx.roots, (r) => w.raw(nodes.hash(r, w), "(Hashed Inner Node)"));
  return w.digest();
}

export function metadataHash(md: NonNullable<PreparedTransactionShape["metadata"]>, parent?: HashWriter): Uint8Array {
  const submitter = required(md.submitterInfo, "submitter info");
  const w = parent ? parent.sub() : HashWriter.create();
  w.raw(PURPOSE, "Hash Purpose").byte(METADATA_ENCODING_V1, "01 (Metadata Encoding Version)");
  parties(w, "Act As Parties", submitter.actAs);
  w.context("Command Id");
  w.string(submitter.commandId);
  w.context("Transaction UUID");
  w.string(md.transactionUuid);
  w.context("Mediator Group");
  w.int32(md.mediatorGroup);
  w.context("Synchronizer Id");
  w.string(md.synchronizerId);
  w.context("Min Time Boundary");
  w.optional(md.minLedgerEffectiveTime, (t) => w.int64(t));
  w.context("Max Time Boundary");
  w.optional(md.maxLedgerEffectiveTime, (t) => w.int64(t));
  w.context("Preparation Time");
  w.int64(md.preparationTime);
  w.context("Disclosed Contracts");
  w.list(md.inputContracts, (c) => {
    if (c.contract.case !== "v1") throw new UnhashableTransaction("an input contract without its v1 create");
    w.context("Created At");
    w.int64(c.createdAt);
    w.context("Create Contract");
    w.raw(createBytes(w.sub(), c.contract.value, undefined), "Disclosed Contract");
  });
  return w.digest();
}

/** The final hash over the transaction and metadata hashes, written to `w`. */
function finalHash(prepared: PreparedTransactionShape, w: HashWriter): Uint8Array {
  const txShape = required(prepared.transaction, "transaction");
  const mdShape = required(prepared.metadata, "metadata");
  w.raw(PURPOSE, "Hash Purpose").byte(HASHING_SCHEME_V2, "02 (Hashing Scheme Version)");
  w.raw(transactionHash(txShape, w), "Transaction");
  w.raw(metadataHash(mdShape, w), "Metadata");
  return w.digest();
}

/**
 * The hash and Canton-style byte trace of it (verbose hashing). Slower than
 * `preparedTransactionHash` (a line per piece), so only a request asking for it pays it.
 */
export function tracedPreparedTransactionHash(prepared: PreparedTransactionShape): { readonly hash: Uint8Array; readonly details: string } {
  const w = new TracingHashWriter();
  const hash = finalHash(prepared, w);
  return { hash, details: traceWithResult(w, hash) };
}

/** The 32 bytes an external party signs (no multihash prefix). */
export function preparedTransactionHash(prepared: PreparedTransactionShape): Uint8Array {
  const tx = transactionHash(required(prepared.transaction, "transaction"));
  const md = metadataHash(required(prepared.metadata, "metadata"));
  return sha256(concatBytes(PURPOSE, Uint8Array.of(HASHING_SCHEME_V2), tx, md));
}
