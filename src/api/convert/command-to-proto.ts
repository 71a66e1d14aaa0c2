/**
 * The engine's create and exercise commands as Ledger API protobuf, for commands the node builds
 * itself and hands to a Ledger API path (the `/v0` external-party endpoints prepare them for the
 * party's signature), with the disclosed contracts they need.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { CommandSchema, DisclosedContractSchema } from "../../../gen/com/daml/ledger/api/v2/commands_pb.js";
import type { Command } from "../../ledger/commands.js";
import { createdEventBlobOf } from "../../ledger/created-event-blob.js";
import type { ContractRecord } from "../../ledger/records.js";
import { qualifiedId } from "../../ledger/template.js";
import type { RecordT } from "../../ledger/daml-type.js";
import { recordToProto, valueToProto } from "./daml-value-proto.js";
import { identifierOfId } from "./prepared-transaction.js";

export function commandToProto(command: Command): MessageInitShape<typeof CommandSchema> {
  switch (command.kind) {
    case "create":
      return {
        command: {
          case: "create",
          value: { templateId: identifierOfId(qualifiedId(command.template.id)), createArguments: recordToProto(command.template.payload as RecordT<unknown>, command.payload as Record<string, unknown>) },
        },
      };
    case "exercise": {
      const target = command.target.kind === "template" ? command.target.template : command.target.iface;
      const choice = target.choices.get(command.choice);
      if (!choice) throw new Error(`no choice ${command.choice} on ${qualifiedId(target.id)}`);
      return {
        command: {
          case: "exercise",
          value: { templateId: identifierOfId(qualifiedId(target.id)), contractId: command.contractId, choice: command.choice, choiceArgument: valueToProto(choice.argument, command.argument) },
        },
      };
    }
    default:
      throw new Error(`commandToProto: ${command.kind} commands are not built by the node`);
  }
}

export function disclosedContractToProto(c: ContractRecord, synchronizerId: string): MessageInitShape<typeof DisclosedContractSchema> {
  return { templateId: identifierOfId(c.templateId), contractId: c.contractId, createdEventBlob: createdEventBlobOf(c), synchronizerId };
}
