/**
 * An interpreted, uncommitted transaction as Canton's `PreparedTransaction` (reference §3.3): the
 * nodes in pre-order with verbose values, the seeds of creates and exercises, and the metadata the
 * parties sign (submitter, synchronizer, UUID, preparation time, input contracts sorted by id).
 * Contracts the transaction creates show their unsuffixed (local) ids, as in Canton; they receive
 * the suffix when the transaction commits.
 *
 * The same function encodes the node's re-interpretation at execute: equal inputs give equal bytes,
 * so "what was signed" and "what will commit" are compared by their hashes.
 */
import type {
  DamlTransaction_Node as Node,
  Metadata,
  Metadata_InputContract,
  PreparedTransaction,
} from "../../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import type { Create, Exercise, Fetch, Node as V1Node } from "../../../gen/com/daml/ledger/api/v2/interactive/transaction/v1/interactive_submission_data_pb.js";
import type { Identifier, Value } from "../../../gen/com/daml/ledger/api/v2/value_pb.js";
import { createdEventBlobOf } from "../../ledger/created-event-blob.js";
import { fromDamlJson, type DamlType } from "../../ledger/daml-type.js";
import { nodeSeed, unsuffixedContractId } from "../../ledger/ids.js";
import type { FetchRecord, InterpretedTransaction } from "../../ledger/interpreter.js";
import type { ContractRecord, CreateNodeRecord, ExerciseNodeRecord, NodeRecord } from "../../ledger/records.js";
import type { TemplateRegistry } from "../../ledger/registry.js";
import { valueToProto } from "./daml-value-proto.js";
import { preparedBounds } from "../../ledger/time-bounds.js";
import { extend } from "../../util/extend.js";

/** The LF serialization version hashing scheme V2 takes. */
const LF_VERSION = "2.1";

export interface PreparedTransactionInput {
  readonly interpreted: Pick<InterpretedTransaction, "nodes" | "fetches" | "usesTime" | "timeBounds">;
  /** The pre-existing contracts the transaction used (as stored, suffixed ids). */
  readonly inputContracts: readonly ContractRecord[];
  /** The update's seed (UpdateIds): of the node seeds, and, through the ledger, of the created contract ids. */
  readonly seed: string;
  readonly actAs: readonly string[];
  readonly commandId: string;
  readonly synchronizerId: string;
  readonly transactionUuid: string;
  /** Also the ledger time it was interpreted at. */
  readonly preparationTime: bigint;
}

/**
 * Messages are literals of their generated types, as in daml-value-proto.ts (protobuf-es's
 * `create` would visit every nested schema by reflection); unset optional fields are left out,
 * as `create` leaves them.
 */
export function preparedTransactionOf(input: PreparedTransactionInput, registry: TemplateRegistry): PreparedTransaction {
  const nodes = input.interpreted.nodes;
  const local = new Set(nodes.filter((n) => n.kind === "create").map((n) => n.contractId));
  const encode = new ValueEncoder(registry, local);
  const fetches = fetchesByParent(nodes.length, input.interpreted.fetches ?? []);
  return {
    $typeName: "com.daml.ledger.api.v2.interactive.PreparedTransaction",
    transaction: {
      $typeName: "com.daml.ledger.api.v2.interactive.DamlTransaction",
      version: LF_VERSION,
      roots: rootsOf(nodes).map(String),
      nodes: [
        ...nodes.map((n) => nodeOf(n, nodes, encode, fetches.get(n.nodeId))),
        ...[...fetches.values()].flat().map((f) => fetchNodeOf(f, encode)),
      ],
      nodeSeeds: nodes.map((n) => ({ $typeName: "com.daml.ledger.api.v2.interactive.DamlTransaction.NodeSeed", nodeId: n.nodeId, seed: nodeSeed(input.seed, n.nodeId) })),
    },
    metadata: metadataOf(input, encode),
  };
}

function metadataOf(input: PreparedTransactionInput, encode: ValueEncoder): Metadata {
  const bounds = preparedBounds(input.interpreted, input.preparationTime);
  const inputContracts = [...input.inputContracts]
    .sort((a, b) => (a.contractId < b.contractId ? -1 : a.contractId > b.contractId ? 1 : 0))
    .map((c): Metadata_InputContract => ({
      $typeName: "com.daml.ledger.api.v2.interactive.Metadata.InputContract",
      contract: { case: "v1", value: encode.create(c) },
      createdAt: c.createdAt,
      eventBlob: createdEventBlobOf(c),
    }));
  const metadata: Metadata = {
    $typeName: "com.daml.ledger.api.v2.interactive.Metadata",
    submitterInfo: { $typeName: "com.daml.ledger.api.v2.interactive.Metadata.SubmitterInfo", actAs: [...input.actAs].sort(), commandId: input.commandId },
    synchronizerId: input.synchronizerId,
    mediatorGroup: 0,
    transactionUuid: input.transactionUuid,
    preparationTime: input.preparationTime,
    inputContracts,
    globalKeyMapping: [],
  };
  // Optional by presence, as hashed: absent for a transaction that neither read nor compared the time.
  if (bounds.min !== undefined) metadata.minLedgerEffectiveTime = bounds.min;
  if (bounds.max !== undefined) metadata.maxLedgerEffectiveTime = bounds.max;
  return metadata;
}

/** Ids of the top-level nodes: an exercise's descendants follow it up to `lastDescendantNodeId`. */
export function rootsOf(nodes: readonly NodeRecord[]): number[] {
  return childrenIn(nodes, 0, nodes.length - 1);
}

function childrenIn(nodes: readonly NodeRecord[], from: number, to: number): number[] {
  const ids: number[] = [];
  for (let i = from; i <= to; ) {
    ids.push(i);
    const n = nodes[i];
    i = n.kind === "exercise" ? n.lastDescendantNodeId + 1 : i + 1;
  }
  return ids;
}

/** A fetch with its prepared node id: after the ledger nodes (ids are opaque, not hashed). */
interface NumberedFetch extends FetchRecord {
  readonly id: number;
}

/** The recorded fetches by the exercise that ran them, numbered after the `count` ledger nodes. */
function fetchesByParent(count: number, fetches: readonly FetchRecord[]): Map<number, NumberedFetch[]> {
  const byParent = new Map<number, NumberedFetch[]>();
  fetches.forEach((f, i) => {
    const list = byParent.get(f.parent) ?? [];
    list.push(extend(f, { id: count + i }));
    byParent.set(f.parent, list);
  });
  return byParent;
}

/** An exercise's children in execution order: each fetch before the first child created after it. */
function withFetches(children: readonly number[], fetches: readonly NumberedFetch[] | undefined): number[] {
  if (!fetches) return [...children];
  const out: number[] = [];
  let f = 0;
  for (const child of children) {
    while (f < fetches.length && fetches[f].before <= child) out.push(fetches[f++].id);
    out.push(child);
  }
  while (f < fetches.length) out.push(fetches[f++].id);
  return out;
}

function nodeOf(n: NodeRecord, nodes: readonly NodeRecord[], encode: ValueEncoder, fetches: readonly NumberedFetch[] | undefined): Node {
  return versioned(
    n.nodeId,
    n.kind === "create"
      ? { case: "create", value: encode.create(n) }
      : { case: "exercise", value: encode.exercise(n, withFetches(childrenIn(nodes, n.nodeId + 1, n.lastDescendantNodeId), fetches)) },
  );
}

function fetchNodeOf(f: NumberedFetch, encode: ValueEncoder): Node {
  return versioned(f.id, { case: "fetch", value: encode.fetch(f) });
}

function versioned(nodeId: number, nodeType: V1Node["nodeType"]): Node {
  return {
    $typeName: "com.daml.ledger.api.v2.interactive.DamlTransaction.Node",
    nodeId: String(nodeId),
    versionedNode: { case: "v1", value: { $typeName: "com.daml.ledger.api.v2.interactive.transaction.v1.Node", nodeType } },
  };
}

const sorted = (xs: readonly string[]): string[] => [...new Set(xs)].sort();

export function identifierOfId(templateId: string): Identifier {
  const [packageId, moduleName, entityName] = templateId.split(":");
  return { $typeName: "com.daml.ledger.api.v2.Identifier", packageId, moduleName, entityName };
}

/** Daml-LF JSON values of the ledger's records as verbose protobuf Values, local contract ids unsuffixed. */
class ValueEncoder {
  constructor(
    private readonly registry: TemplateRegistry,
    private readonly local: ReadonlySet<string>,
  ) {}

  create(c: Pick<CreateNodeRecord, "contractId" | "templateId" | "packageName" | "payload" | "signatories" | "observers">): Create {
    const template = this.registry.template(c.templateId);
    return {
      $typeName: "com.daml.ledger.api.v2.interactive.transaction.v1.Create",
      lfVersion: LF_VERSION,
      contractId: this.cid(c.contractId),
      packageName: c.packageName,
      templateId: identifierOfId(c.templateId),
      argument: this.value(template.payload, c.payload),
      signatories: sorted(c.signatories),
      stakeholders: sorted([...c.signatories, ...c.observers]),
    };
  }

  fetch(f: FetchRecord): Fetch {
    const fetch: Fetch = {
      $typeName: "com.daml.ledger.api.v2.interactive.transaction.v1.Fetch",
      lfVersion: LF_VERSION,
      contractId: this.cid(f.contractId),
      packageName: f.packageName,
      templateId: identifierOfId(f.templateId),
      signatories: sorted(f.signatories),
      stakeholders: sorted(f.stakeholders),
      actingParties: sorted(f.actingParties),
    };
    if (f.interfaceId) fetch.interfaceId = identifierOfId(f.interfaceId);
    return fetch;
  }

  exercise(n: ExerciseNodeRecord, children: readonly number[]): Exercise {
    const choice = this.choiceOf(n);
    const exercise: Exercise = {
      $typeName: "com.daml.ledger.api.v2.interactive.transaction.v1.Exercise",
      lfVersion: LF_VERSION,
      contractId: this.cid(n.contractId),
      packageName: n.packageName,
      templateId: identifierOfId(n.templateId),
      signatories: sorted(n.signatories ?? []),
      stakeholders: sorted(n.stakeholders),
      actingParties: sorted(n.actingParties),
      choiceId: n.choice,
      chosenValue: this.value(choice.argument, n.argument),
      consuming: n.consuming,
      children: children.map(String),
      exerciseResult: this.value(choice.result, n.result),
      choiceObservers: sorted(n.choiceObservers ?? []),
    };
    if (n.interfaceId) exercise.interfaceId = identifierOfId(n.interfaceId);
    return exercise;
  }

  private choiceOf(n: ExerciseNodeRecord): { readonly argument: DamlType; readonly result: DamlType } {
    const found = n.interfaceId
      ? this.interfaceChoice(n.interfaceId, n.choice)
      : this.registry.template(n.templateId).choices.get(n.choice);
    if (!found) throw new Error(`no choice ${n.choice} on ${n.interfaceId ?? n.templateId}`);
    return found;
  }

  private interfaceChoice(interfaceId: string, choice: string) {
    const entry = this.registry.find(interfaceId);
    return entry?.kind === "interface" ? entry.iface.choices.get(choice) : undefined;
  }

  private cid(contractId: string): string {
    return this.local.has(contractId) ? unsuffixedContractId(contractId) : contractId;
  }

  private value(type: DamlType, json: unknown): Value {
    const v = valueToProto(type, fromDamlJson(type, json));
    return this.local.size === 0 ? v : this.unsuffix(v);
  }

  /** Rewrites the local contract ids inside a value to their unsuffixed form. */
  private unsuffix(v: Value): Value {
    const s = v.sum;
    switch (s.case) {
      case "contractId":
        if (this.local.has(s.value)) s.value = unsuffixedContractId(s.value);
        break;
      case "optional":
        if (s.value.value) this.unsuffix(s.value.value);
        break;
      case "list":
        s.value.elements.forEach((e) => this.unsuffix(e));
        break;
      case "textMap":
        s.value.entries.forEach((e) => e.value && this.unsuffix(e.value));
        break;
      case "genMap":
        s.value.entries.forEach((e) => (e.key && this.unsuffix(e.key), e.value && this.unsuffix(e.value)));
        break;
      case "record":
        s.value.fields.forEach((f) => f.value && this.unsuffix(f.value));
        break;
      case "variant":
        if (s.value.value) this.unsuffix(s.value.value);
        break;
    }
    return v;
  }
}
