/**
 * Stored contracts as the Splice APIs show them (`Contract`, `ContractWithState`): the payload in
 * Daml-LF JSON exactly as the JSON Ledger API prints create arguments, the created-event blob a
 * client can disclose, the creation time.
 */
import type { JsonObject, MessageInitShape } from "@bufbuild/protobuf";
import type { ContractSchema, ContractWithStateSchema } from "../../../../gen/ccwallet/wallet/v0/contract_pb.js";
import type { ContractRecord } from "../../../ledger/records.js";
import type { TemplateRegistry } from "../../../ledger/registry.js";
import { fromDamlJson } from "../../../ledger/daml-type.js";
import { recordToProto } from "../../convert/daml-value-proto.js";
import { createdEventBlobOf } from "../../../ledger/created-event-blob.js";
import { timestampOf } from "../../convert/ledger-proto.js";
import { protoRecordToDamlJson } from "../../convert/canton-json-daml.js";

export function contractToProto(c: ContractRecord, registry: TemplateRegistry): MessageInitShape<typeof ContractSchema> {
  const type = registry.template(c.templateId).payload;
  const payload = protoRecordToDamlJson(recordToProto(type, fromDamlJson(type, c.payload) as Record<string, unknown>)) as JsonObject;
  return {
    templateId: c.templateId,
    contractId: c.contractId,
    payload,
    createdEventBlob: createdEventBlobOf(c),
    createdAt: timestampOf(c.createdAt),
  };
}

export function contractWithStateToProto(c: ContractRecord, registry: TemplateRegistry, synchronizerId: string): MessageInitShape<typeof ContractWithStateSchema> {
  return { contract: contractToProto(c, registry), domainId: synchronizerId };
}
