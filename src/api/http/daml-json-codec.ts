/**
 * Daml-LF JSON inside Ledger API JSON requests (create arguments, choice arguments, contract
 * keys) to protobuf values, typed by the template or interface the command names.
 */
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import type { Record as ProtoRecord, Value } from "../../../gen/com/daml/ledger/api/v2/value_pb.js";
import type { DamlType, RecordT } from "../../ledger/daml-type.js";
import { fromDamlJson, MAX_VALUE_NESTING, NestingError, ValueError } from "../../ledger/daml-type.js";
import { errors } from "../../ledger/errors.js";
import type { TemplateRegistry } from "../../ledger/registry.js";
import { recordToProto, valueToProto } from "../convert/daml-value-proto.js";

export interface DamlValueContext {
  readonly message: DescMessage;
  readonly field: DescField;
  readonly parent: Record<string, unknown>;
}

function typeFor(registry: TemplateRegistry, ctx: DamlValueContext): DamlType {
  const templateId = ctx.parent.templateId;
  if (typeof templateId !== "string") throw errors.missingField("templateId");
  const entry = registry.find(templateId);
  if (!entry) throw errors.templateNotFound(templateId);
  switch (ctx.field.name) {
    case "create_arguments":
      if (entry.kind !== "template") throw errors.invalidField("templateId", `${templateId} is an interface`);
      return entry.template.payload;
    case "contract_key":
      if (entry.kind !== "template" || !entry.template.key) throw errors.invalidArgument(`Template ${templateId} has no contract key`);
      return entry.template.key.type;
    case "choice_argument": {
      const choice = typeof ctx.parent.choice === "string" ? ctx.parent.choice : "";
      const c = entry.kind === "template" ? entry.template.choices.get(choice) : entry.iface.choices.get(choice);
      if (!c) throw errors.invalidArgument(`Couldn't find requested choice ${choice} for ${templateId}`);
      return c.argument;
    }
    default:
      throw errors.invalidArgument(`${ctx.message.typeName}.${ctx.field.name} does not take a Daml value on input`);
  }
}

export function damlJsonCodec(registry: TemplateRegistry) {
  return {
    decode(json: unknown, ctx: DamlValueContext): Value | ProtoRecord {
      const type = typeFor(registry, ctx);
      try {
        const value = fromDamlJson(type, json);
        return ctx.field.name === "create_arguments" ? recordToProto(type as RecordT<unknown>, value as Record<string, unknown>) : valueToProto(type, value);
      } catch (e) {
        if (e instanceof NestingError) throw errors.valueTooDeep(MAX_VALUE_NESTING);
        if (e instanceof ValueError) {
          throw errors.preprocessingFailed(`Command interpretation error in LF-DAMLe: ${String(ctx.parent.templateId)}: ${e.message}`);
        }
        throw e;
      }
    },
  };
}
