/**
 * The command a prepared transaction came from, read back from its root nodes: a root create is a
 * CreateCommand, a root exercise an ExerciseCommand, and a create followed by an exercise of the
 * contract it creates is a CreateAndExerciseCommand. Execute re-interprets this command with the
 * signed update id and time, and commits only if the result hashes to what the parties signed, so
 * nothing here has to be trusted.
 */
import { create } from "@bufbuild/protobuf";
import { type Command, CommandSchema } from "../../../gen/com/daml/ledger/api/v2/commands_pb.js";
import type { DamlTransaction } from "../../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import type { Create, Exercise } from "../../../gen/com/daml/ledger/api/v2/interactive/transaction/v1/interactive_submission_data_pb.js";
import type { Record as ProtoRecord } from "../../../gen/com/daml/ledger/api/v2/value_pb.js";
import { errors } from "../../ledger/errors.js";

type RootNode = { readonly kind: "create"; readonly node: Create } | { readonly kind: "exercise"; readonly node: Exercise };

function rootNodes(tx: DamlTransaction): RootNode[] {
  const byId = new Map(tx.nodes.map((n) => [n.nodeId, n]));
  return tx.roots.map((id) => {
    const n = byId.get(id);
    const t = n?.versionedNode.case === "v1" ? n.versionedNode.value.nodeType : undefined;
    if (t?.case === "create") return { kind: "create", node: t.value };
    if (t?.case === "exercise") return { kind: "exercise", node: t.value };
    throw errors.invalidArgument(`prepared_transaction: root node ${id} is not a create or an exercise`);
  });
}

function argumentRecord(c: Create): ProtoRecord {
  if (c.argument?.sum.case !== "record") throw errors.invalidArgument("prepared_transaction: a create argument is not a record");
  return c.argument.sum.value;
}

export function commandsOfPrepared(tx: DamlTransaction): Command[] {
  const roots = rootNodes(tx);
  const [first, second] = roots;
  if (roots.length === 1 && first.kind === "create") {
    return [create(CommandSchema, { command: { case: "create", value: { templateId: first.node.templateId, createArguments: argumentRecord(first.node) } } })];
  }
  if (roots.length === 1 && first.kind === "exercise") {
    const e = first.node;
    return [
      create(CommandSchema, {
        command: { case: "exercise", value: { templateId: e.interfaceId ?? e.templateId, contractId: e.contractId, choice: e.choiceId, choiceArgument: e.chosenValue } },
      }),
    ];
  }
  if (roots.length === 2 && first.kind === "create" && second.kind === "exercise" && second.node.contractId === first.node.contractId) {
    const e = second.node;
    return [
      create(CommandSchema, {
        command: {
          case: "createAndExercise",
          value: { templateId: first.node.templateId, createArguments: argumentRecord(first.node), choice: e.choiceId, choiceArgument: e.chosenValue },
        },
      }),
    ];
  }
  throw errors.invalidArgument(`prepared_transaction: ${roots.length} root nodes do not come from one command`);
}
