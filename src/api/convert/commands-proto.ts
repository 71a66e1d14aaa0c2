/**
 * Protobuf `Commands` -> the engine's `Submission`: ids resolved against the registry, Daml
 * arguments checked against their types, parties and disclosed contracts looked up. Every
 * problem is a Canton error naming the field.
 */
import type { Commands } from "../../../gen/com/daml/ledger/api/v2/commands_pb.js";
import type { Value } from "../../../gen/com/daml/ledger/api/v2/value_pb.js";
import type { Command, DeduplicationPeriod, Submission } from "../../ledger/commands.js";
import type { DamlType, RecordT } from "../../ledger/daml-type.js";
import { MAX_VALUE_NESTING, NestingError, ValueError } from "../../ledger/daml-type.js";
import { errors } from "../../ledger/errors.js";
import { isLedgerString, isPartyId, randomHex } from "../../ledger/ids.js";
import type { ContractRecord } from "../../ledger/records.js";
import type { TemplateRegistry } from "../../ledger/registry.js";
import type { InterfaceDef, Template } from "../../ledger/template.js";
import type { Store } from "../../ledger/store-port.js";
import { recordFromProto, valueFromProto } from "./daml-value-proto.js";
import { isBlobOf, parseCreatedEventBlob } from "../../ledger/created-event-blob.js";
import { identifierToString, microsOf } from "./ledger-proto.js";

function preprocess<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof NestingError) throw errors.valueTooDeep(MAX_VALUE_NESTING);
    if (e instanceof ValueError) {
      throw errors.preprocessingFailed(`Command interpretation error in LF-DAMLe: ${what}: ${e.message}`);
    }
    throw e;
  }
}

function resolveTemplate(registry: TemplateRegistry, id: string): Template<unknown> {
  const e = registry.find(id);
  if (!e || e.kind !== "template") throw errors.templateNotFound(id);
  return e.template;
}

function choiceArgumentType(target: Template<unknown> | InterfaceDef<unknown>, choice: string, id: string): DamlType {
  const c = target.choices.get(choice);
  if (!c) throw errors.invalidArgument(`Couldn't find requested choice ${choice} for ${id}`);
  return c.argument;
}

function argument(type: DamlType, value: Value | undefined, what: string): unknown {
  if (!value) throw errors.missingField("choice_argument");
  return preprocess(what, () => valueFromProto(type, value));
}

export function commandsFromProto(registry: TemplateRegistry, commands: Commands["commands"]): Command[] {
  if (commands.length === 0) throw errors.missingField("commands");
  return commands.map((c, i): Command => {
    const cmd = c.command;
    switch (cmd.case) {
      case "create": {
        const id = identifierToString(cmd.value.templateId, "template_id");
        const template = resolveTemplate(registry, id);
        const args = cmd.value.createArguments;
        if (!args) throw errors.missingField("create_arguments");
        return { kind: "create", template, payload: preprocess(id, () => recordFromProto(template.payload as RecordT<unknown>, args)) };
      }
      case "exercise": {
        const id = identifierToString(cmd.value.templateId, "template_id");
        if (!cmd.value.contractId) throw errors.missingField("contract_id");
        const e = registry.find(id);
        if (!e) throw errors.templateNotFound(id);
        const target = e.kind === "template" ? e.template : e.iface;
        const arg = argument(choiceArgumentType(target, cmd.value.choice, id), cmd.value.choiceArgument, `${id} ${cmd.value.choice}`);
        return {
          kind: "exercise",
          target: e.kind === "template" ? { kind: "template", template: e.template } : { kind: "interface", iface: e.iface },
          contractId: cmd.value.contractId,
          choice: cmd.value.choice,
          argument: arg,
        };
      }
      case "exerciseByKey": {
        const id = identifierToString(cmd.value.templateId, "template_id");
        const template = resolveTemplate(registry, id);
        if (!template.key) throw errors.invalidArgument(`Template ${id} has no contract key`);
        const keyValue = cmd.value.contractKey;
        if (!keyValue) throw errors.missingField("contract_key");
        const key = preprocess(`${id} key`, () => valueFromProto(template.key!.type, keyValue));
        const arg = argument(choiceArgumentType(template, cmd.value.choice, id), cmd.value.choiceArgument, `${id} ${cmd.value.choice}`);
        return { kind: "exerciseByKey", template, key, choice: cmd.value.choice, argument: arg };
      }
      case "createAndExercise": {
        const id = identifierToString(cmd.value.templateId, "template_id");
        const template = resolveTemplate(registry, id);
        const args = cmd.value.createArguments;
        if (!args) throw errors.missingField("create_arguments");
        const payload = preprocess(id, () => recordFromProto(template.payload as RecordT<unknown>, args));
        const arg = argument(choiceArgumentType(template, cmd.value.choice, id), cmd.value.choiceArgument, `${id} ${cmd.value.choice}`);
        return { kind: "createAndExercise", template, payload, choice: cmd.value.choice, argument: arg };
      }
      default:
        throw errors.missingField(`commands[${i}].command`);
    }
  });
}

function checkParties(field: string, parties: readonly string[]): void {
  for (const p of parties) if (!isPartyId(p)) throw errors.invalidField(field, `Invalid party id ${JSON.stringify(p)}`);
}

/** Builds a submission; `userId` is the request's or, when empty, the token's. */
export function submissionFromProto(c: Commands | undefined, tokenUserId: string, registry: TemplateRegistry, store: Store): Promise<Submission> {
  return checkedSubmission(c, tokenUserId, store, (checked) => commandsFromProto(registry, checked.commands));
}

/**
 * submissionFromProto with the commands `commandsOf` gives once the rest is checked: none for an
 * externally signed transaction whose own interpretation, held by the node, commits as is.
 */
export async function checkedSubmission(
  c: Commands | undefined,
  tokenUserId: string,
  store: Store,
  commandsOf: (c: Commands) => readonly Command[],
): Promise<Submission> {
  if (!c) throw errors.missingField("commands");
  if (!c.commandId) throw errors.missingField("command_id");
  if (!isLedgerString(c.commandId)) throw errors.invalidField("command_id", `not a valid LedgerString: ${c.commandId}`);
  if (c.actAs.length === 0) throw errors.missingField("act_as");
  checkParties("act_as", c.actAs);
  checkParties("read_as", c.readAs);
  if (c.submissionId && !isLedgerString(c.submissionId)) throw errors.invalidField("submission_id", "not a valid LedgerString");
  if (c.workflowId && !isLedgerString(c.workflowId)) throw errors.invalidField("workflow_id", "not a valid LedgerString");
  const userId = c.userId || tokenUserId;
  const commands = commandsOf(c);
  const unknown: string[] = [];
  for (const p of new Set([...c.actAs, ...c.readAs])) if (!(await store.party(p))) unknown.push(p);
  if (unknown.length > 0) throw errors.unknownParties(unknown);
  const disclosed: ContractRecord[] = [];
  for (const d of c.disclosedContracts) {
    const blob = parseCreatedEventBlob(d.createdEventBlob);
    if (d.contractId && d.contractId !== blob.contractId) {
      throw errors.invalidField("disclosed_contracts.contract_id", "does not match the created event blob");
    }
    // Disclosed only as created (its blob byte for byte): one that is not, like one that is not
    // active, discloses nothing, and a use of it is then not found; a refusal would tell the
    // caller that a contract it cannot see is active.
    const rec = await store.activeContract(blob.contractId);
    if (rec && isBlobOf(d.createdEventBlob, rec)) disclosed.push(rec);
  }
  return {
    userId,
    commandId: c.commandId,
    submissionId: c.submissionId || randomHex(16),
    workflowId: c.workflowId,
    actAs: [...new Set(c.actAs)],
    readAs: [...new Set(c.readAs)],
    commands,
    deduplication: deduplicationOf(c.deduplicationPeriod),
    disclosed,
    minLedgerTimeAbs: c.minLedgerTimeAbs ? microsOf(c.minLedgerTimeAbs) : undefined,
  };
}

function deduplicationOf(d: Commands["deduplicationPeriod"]): DeduplicationPeriod {
  switch (d.case) {
    case "deduplicationDuration":
      return { kind: "duration", seconds: d.value.seconds, nanos: d.value.nanos };
    case "deduplicationOffset":
      return { kind: "offset", offset: d.value };
    default:
      return { kind: "none" };
  }
}
