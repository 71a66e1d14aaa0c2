/**
 * The Canton Coin commands the bench sends over the public gRPC Ledger API, built as a client
 * would: Splice template ids by package name, typed choice arguments encoded to proto Values,
 * and the network's contracts handed over as disclosed contracts (created event blobs).
 */
import { create } from "@bufbuild/protobuf";
import { SubmitAndWaitForTransactionRequestSchema, type SubmitAndWaitForTransactionRequest, type SubmitAndWaitForTransactionResponse } from "../../gen/com/daml/ledger/api/v2/command_service_pb.js";
import { CommandsSchema, DisclosedContractSchema, type DisclosedContract } from "../../gen/com/daml/ledger/api/v2/commands_pb.js";
import { IdentifierSchema, type Identifier } from "../../gen/com/daml/ledger/api/v2/value_pb.js";
import { valueToProto } from "../../src/api/convert/daml-value-proto.js";
import { toDamlJson } from "../../src/ledger/daml-type.js";
import { Numeric } from "../../src/ledger/numeric.js";
import { AmuletRules_Transfer, TransferPreapproval_Send, type TransferInput } from "../../src/templates/splice/index.js";

/** Contract ids and created-event blobs (base64) of the network contracts a sender needs. */
export interface CcContext {
  readonly amuletRules: string;
  readonly openRound: string;
  readonly featuredAppRight: string | null;
  readonly preapproval: string;
  readonly blobs: readonly { readonly contractId: string; readonly templateId: string; readonly blob: string }[];
}

const splice = (moduleName: string, entityName: string): Identifier => create(IdentifierSchema, { packageId: "#splice-amulet", moduleName, entityName });

const sendArg = TransferPreapproval_Send.argument;
const transferArg = AmuletRules_Transfer.argument;

function disclosed(ctx: CcContext): DisclosedContract[] {
  return ctx.blobs.map((b) => {
    const [packageId, moduleName, entityName] = b.templateId.split(":");
    return create(DisclosedContractSchema, {
      contractId: b.contractId,
      templateId: { packageId, moduleName, entityName },
      createdEventBlob: Buffer.from(b.blob, "base64"),
    });
  });
}

function transferContext(ctx: CcContext) {
  return { openMiningRound: ctx.openRound, issuingMiningRounds: [], validatorRights: [], featuredAppRight: ctx.featuredAppRight };
}

/** TransferPreapproval_Send of `amount` from one holding of `sender`, change back to them. */
export function preapprovedSend(ctx: CcContext, sender: string, holding: string, amount: string, commandId: string): SubmitAndWaitForTransactionRequest {
  const argument = valueToProto(sendArg, {
    context: { amuletRules: ctx.amuletRules, context: transferContext(ctx) },
    inputs: [{ tag: "InputAmulet", value: holding } satisfies TransferInput],
    amount: Numeric.parse(amount),
    sender,
    description: null,
  });
  return create(SubmitAndWaitForTransactionRequestSchema, {
    commands: create(CommandsSchema, {
      commandId,
      actAs: [sender],
      disclosedContracts: disclosed(ctx),
      commands: [
        {
          command: {
            case: "exercise",
            value: { templateId: splice("Splice.AmuletRules", "TransferPreapproval"), contractId: ctx.preapproval, choice: "TransferPreapproval_Send", choiceArgument: argument },
          },
        },
      ],
    }),
  });
}

/** AmuletRules_Transfer merging `holdings` into one holding of `sender` (no outputs: all change). */
export function mergeTransfer(ctx: CcContext, sender: string, holdings: readonly string[], commandId: string): SubmitAndWaitForTransactionRequest {
  const argument = valueToProto(transferArg, {
    transfer: { sender, provider: sender, inputs: holdings.map((h) => ({ tag: "InputAmulet", value: h })), outputs: [], beneficiaries: null },
    context: transferContext({ ...ctx, featuredAppRight: null }),
  });
  return create(SubmitAndWaitForTransactionRequestSchema, {
    commands: create(CommandsSchema, {
      commandId,
      actAs: [sender],
      disclosedContracts: disclosed(ctx).filter((d) => d.contractId !== ctx.preapproval),
      commands: [
        {
          command: {
            case: "exercise",
            value: { templateId: splice("Splice.AmuletRules", "AmuletRules"), contractId: ctx.amuletRules, choice: "AmuletRules_Transfer", choiceArgument: argument },
          },
        },
      ],
    }),
  });
}

/** The sender's new holding (its change) among the transaction's created events. */
export function createdAmulet(res: SubmitAndWaitForTransactionResponse): string {
  for (const e of res.transaction?.events ?? []) {
    if (e.event.case === "created" && e.event.value.templateId?.entityName === "Amulet") return e.event.value.contractId;
  }
  throw new Error("no Amulet created for the sender");
}

/** The same TransferPreapproval_Send as a JSON Ledger API request body (Daml-LF JSON argument). */
export function preapprovedSendJson(ctx: CcContext, sender: string, holding: string, amount: string, commandId: string): string {
  const choiceArgument = toDamlJson(sendArg, {
    context: { amuletRules: ctx.amuletRules, context: transferContext(ctx) },
    inputs: [{ tag: "InputAmulet", value: holding }],
    amount: Numeric.parse(amount),
    sender,
    description: null,
  });
  return JSON.stringify({
    commands: {
      commands: [{ ExerciseCommand: { templateId: "#splice-amulet:Splice.AmuletRules:TransferPreapproval", contractId: ctx.preapproval, choice: "TransferPreapproval_Send", choiceArgument } }],
      commandId,
      actAs: [sender],
      disclosedContracts: ctx.blobs.map((b) => ({ contractId: b.contractId, templateId: b.templateId, createdEventBlob: b.blob, synchronizerId: "" })),
    },
  });
}

/** The sender's change among a JSON transaction's events. */
export function createdAmuletJson(body: string): string {
  const tx = JSON.parse(body) as { transaction?: { events?: { CreatedEvent?: { templateId: string; contractId: string } }[] } };
  for (const e of tx.transaction?.events ?? []) if (e.CreatedEvent?.templateId.endsWith(":Splice.Amulet:Amulet")) return e.CreatedEvent.contractId;
  throw new Error(`no Amulet created for the sender: ${body.slice(0, 300)}`);
}
