/**
 * Ledger records (as stored) to the Ledger API's protobuf messages. Daml values are stored as
 * Daml-LF JSON and printed to protobuf through their template's types.
 */
import { create, type DescMessage, type Message } from "@bufbuild/protobuf";
import { anyPack, type Timestamp, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { type Completion, CompletionSchema } from "../../../gen/com/daml/ledger/api/v2/completion_pb.js";
import { type CreatedEvent, CreatedEventSchema, type Event, EventSchema } from "../../../gen/com/daml/ledger/api/v2/event_pb.js";
import { type OffsetCheckpoint, OffsetCheckpointSchema } from "../../../gen/com/daml/ledger/api/v2/offset_checkpoint_pb.js";
import { type Transaction, TransactionSchema } from "../../../gen/com/daml/ledger/api/v2/transaction_pb.js";
import { type Identifier, IdentifierSchema } from "../../../gen/com/daml/ledger/api/v2/value_pb.js";
import { ErrorInfoSchema, RequestInfoSchema, ResourceInfoSchema } from "../../../gen/google/rpc/error_details_pb.js";
import { type Status, StatusSchema } from "../../../gen/google/rpc/status_pb.js";
import type { DamlType } from "../../ledger/daml-type.js";
import { fromDamlJson } from "../../ledger/daml-type.js";
import { errors } from "../../ledger/errors.js";
import type { ProjectedEvent, TransactionFormat } from "../../ledger/event-format.js";
import { projectTransaction, showsCommandId } from "../../ledger/event-format.js";
import type { CompletionRecord, ContractRecord, CreateNodeRecord, ExerciseNodeRecord, StatusRecord, TransactionRecord } from "../../ledger/records.js";
import type { TemplateRegistry } from "../../ledger/registry.js";
import { parseIdString } from "../../ledger/registry.js";
import { qualifiedId } from "../../ledger/template.js";
import { createdEventBlobOf } from "../../ledger/created-event-blob.js";
import { valueToProto, recordToProto } from "./daml-value-proto.js";
import { extend } from "../../util/extend.js";

/** Who this participant and its synchronizer are, as shown in events and completions. */
export interface LedgerIdentity {
  readonly participantId: string;
  readonly synchronizerId: string;
}

export function timestampOf(micros: bigint): Timestamp {
  const seconds = micros / 1_000_000n - (micros % 1_000_000n < 0n ? 1n : 0n);
  return create(TimestampSchema, { seconds, nanos: Number(micros - seconds * 1_000_000n) * 1000 });
}

export function microsOf(ts: Timestamp): bigint {
  return ts.seconds * 1_000_000n + BigInt(Math.floor(ts.nanos / 1000));
}

export function identifierFromString(id: string): Identifier {
  const p = parseIdString(id);
  if (!p) throw errors.invalidField("template_id", `not an identifier: ${id}`);
  return create(IdentifierSchema, { packageId: p.packageRef, moduleName: p.moduleName, entityName: p.entityName });
}

export function identifierToString(id: Identifier | undefined, field: string): string {
  if (!id) throw errors.missingField(field);
  if (!id.packageId || !id.moduleName || !id.entityName) throw errors.invalidField(field, "identifier needs package_id, module_name and entity_name");
  return `${id.packageId}:${id.moduleName}:${id.entityName}`;
}

/** The rich error details Canton attaches: ErrorInfo (code id, category, context), RequestInfo, ResourceInfo. */
export function statusDetails(s: StatusRecord): { desc: DescMessage; value: Message }[] {
  const details: { desc: DescMessage; value: Message }[] = [
    {
      desc: ErrorInfoSchema,
      value: create(ErrorInfoSchema, {
        reason: s.errorCode,
        metadata: extend(s.context, { category: String(s.category) }, s.definiteAnswer !== undefined ? { definite_answer: String(s.definiteAnswer) } : {}),
      }),
    },
  ];
  if (s.correlationId) details.push({ desc: RequestInfoSchema, value: create(RequestInfoSchema, { requestId: s.correlationId }) });
  for (const [resourceType, resourceName] of s.resources) {
    details.push({ desc: ResourceInfoSchema, value: create(ResourceInfoSchema, { resourceType, resourceName }) });
  }
  return details;
}

export function statusToProto(s: StatusRecord | undefined): Status {
  if (!s || s.code === 0) return create(StatusSchema, { code: 0, message: "" });
  return create(StatusSchema, { code: s.code, message: s.message, details: statusDetails(s).map((d) => anyPack(d.desc as never, d.value as never)) });
}

export function completionToProto(c: CompletionRecord, identity: LedgerIdentity): Completion {
  return create(CompletionSchema, {
    commandId: c.commandId,
    status: statusToProto(c.status),
    updateId: c.updateId ?? "",
    userId: c.userId,
    actAs: [...c.actAs],
    submissionId: c.submissionId,
    deduplicationPeriod:
      c.deduplication.kind === "duration"
        ? { case: "deduplicationDuration", value: { seconds: c.deduplication.seconds, nanos: c.deduplication.nanos } }
        : c.deduplication.kind === "offset"
          ? { case: "deduplicationOffset", value: c.deduplication.offset }
          : { case: undefined },
    offset: c.offset,
    synchronizerTime: { synchronizerId: identity.synchronizerId, recordTime: timestampOf(c.recordTime) },
    paidTrafficCost: c.paidTrafficCost ?? 0n,
  });
}

/** An offset checkpoint: the offset and, when known, the synchronizer's record time there. */
export function offsetCheckpointToProto(at: { offset: bigint; recordTime: bigint | undefined }, identity: LedgerIdentity): OffsetCheckpoint {
  return create(OffsetCheckpointSchema, {
    offset: at.offset,
    synchronizerTimes: at.recordTime === undefined ? [] : [{ synchronizerId: identity.synchronizerId, recordTime: timestampOf(at.recordTime) }],
  });
}

/** Encodes stored records into protobuf messages, with type information from the registry. */
export class LedgerProtoEncoder {
  constructor(
    private readonly registry: TemplateRegistry,
    private readonly identity: LedgerIdentity,
  ) {}

  private choiceTypes(node: ExerciseNodeRecord): { argument: DamlType; result: DamlType } {
    if (node.interfaceId) {
      const e = this.registry.find(node.interfaceId);
      const c = e?.kind === "interface" ? e.iface.choices.get(node.choice) : undefined;
      if (c) return c;
    }
    const c = this.registry.template(node.templateId).choices.get(node.choice);
    if (!c) throw errors.internal(`unknown choice ${node.choice} of ${node.templateId}`);
    return c;
  }

  interfacesOf = (templateId: string): readonly string[] =>
    this.registry.find(templateId)?.kind === "template" ? this.registry.template(templateId).interfaces.map((i) => qualifiedId(i.iface.id)) : [];

  createdEvent(
    node: Pick<CreateNodeRecord, "nodeId" | "contractId" | "templateId" | "packageName" | "payload" | "signatories" | "observers" | "key">,
    offset: bigint,
    createdAt: bigint,
    witnesses: readonly string[],
    includeBlob: boolean,
    interfaceViews: readonly string[],
    acsDelta: boolean,
  ): CreatedEvent {
    const template = this.registry.template(node.templateId);
    const payload = fromDamlJson(template.payload, node.payload) as Record<string, unknown>;
    return create(CreatedEventSchema, {
      offset,
      nodeId: node.nodeId,
      contractId: node.contractId,
      templateId: identifierFromString(node.templateId),
      contractKey: template.key && node.key !== undefined ? valueToProto(template.key.type, fromDamlJson(template.key.type, node.key)) : undefined,
      createArguments: recordToProto(template.payload, payload),
      createdEventBlob: includeBlob ? createdEventBlobOf(extend(node, { createdAt })) : new Uint8Array(),
      interfaceViews: interfaceViews.map((ifaceId) => {
        const impl = template.interfaces.find((i) => qualifiedId(i.iface.id) === ifaceId)!;
        const view = impl.view(payload);
        const viewType = impl.iface.view;
        return {
          interfaceId: identifierFromString(ifaceId),
          viewStatus: create(StatusSchema, { code: 0 }),
          viewValue: viewType.kind === "record" ? recordToProto(viewType, view as Record<string, unknown>) : undefined,
        };
      }),
      witnessParties: [...witnesses],
      signatories: [...node.signatories],
      observers: [...node.observers],
      createdAt: timestampOf(createdAt),
      packageName: node.packageName,
      acsDelta,
      representativePackageId: node.templateId.split(":")[0],
    });
  }

  event(e: ProjectedEvent, tx: TransactionRecord): Event {
    switch (e.kind) {
      case "created":
        return create(EventSchema, {
          event: {
            case: "created",
            value: this.createdEvent(e.node, tx.offset, tx.effectiveAt, e.witnesses, e.includeCreatedEventBlob, e.interfaceViews, e.acsDelta),
          },
        });
      case "archived":
        return create(EventSchema, {
          event: {
            case: "archived",
            value: {
              offset: tx.offset,
              nodeId: e.node.nodeId,
              contractId: e.node.contractId,
              templateId: identifierFromString(e.node.templateId),
              witnessParties: [...e.witnesses],
              packageName: e.node.packageName,
              implementedInterfaces: e.node.implementedInterfaces.map(identifierFromString),
            },
          },
        });
      case "exercised": {
        const types = this.choiceTypes(e.node);
        return create(EventSchema, {
          event: {
            case: "exercised",
            value: {
              offset: tx.offset,
              nodeId: e.node.nodeId,
              contractId: e.node.contractId,
              templateId: identifierFromString(e.node.templateId),
              interfaceId: e.node.interfaceId ? identifierFromString(e.node.interfaceId) : undefined,
              choice: e.node.choice,
              choiceArgument: valueToProto(types.argument, fromDamlJson(types.argument, e.node.argument)),
              actingParties: [...e.node.actingParties],
              consuming: e.node.consuming,
              witnessParties: [...e.witnesses],
              lastDescendantNodeId: e.node.lastDescendantNodeId,
              exerciseResult: valueToProto(types.result, fromDamlJson(types.result, e.node.result)),
              packageName: e.node.packageName,
              implementedInterfaces: e.node.implementedInterfaces.map(identifierFromString),
              acsDelta: e.acsDelta,
            },
          },
        });
      }
    }
  }

  /** The transaction as `format` lets its readers see it; undefined when they see no event. */
  transaction(tx: TransactionRecord, format: TransactionFormat, keepEmpty: boolean): Transaction | undefined {
    const events = projectTransaction(tx, format, this.interfacesOf);
    if (events.length === 0 && !keepEmpty) return undefined;
    // Canton shows the traffic paid, like the command id, only to readers among the submitters.
    const submitterView = showsCommandId(tx.submitters, format.eventFormat);
    return create(TransactionSchema, {
      updateId: tx.updateId,
      commandId: submitterView ? tx.commandId : "",
      paidTrafficCost: submitterView ? tx.paidTrafficCost : undefined,
      workflowId: tx.workflowId,
      effectiveAt: timestampOf(tx.effectiveAt),
      events: events.map((e) => this.event(e, tx)),
      offset: tx.offset,
      synchronizerId: this.identity.synchronizerId,
      recordTime: timestampOf(tx.recordTime),
      externalTransactionHash: tx.externalTransactionHash === undefined ? undefined : Buffer.from(tx.externalTransactionHash, "hex"),
    });
  }

  activeContract(c: ContractRecord, witnesses: readonly string[], includeBlob: boolean, interfaceViews: readonly string[]): CreatedEvent {
    return this.createdEvent(c, c.createdOffset, c.createdAt, witnesses, includeBlob, interfaceViews, true);
  }
}
