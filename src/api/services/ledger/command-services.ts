/**
 * CommandService (submit and wait) and CommandSubmissionService (submit and return at once).
 * Both authorize actAs/readAs against the user's rights, then hand the submission to the ledger.
 */
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { CommandService } from "../../../../gen/com/daml/ledger/api/v2/command_service_pb.js";
import { CommandSubmissionService, SubmitResponseSchema } from "../../../../gen/com/daml/ledger/api/v2/command_submission_service_pb.js";
import type { Commands } from "../../../../gen/com/daml/ledger/api/v2/commands_pb.js";
import { requireActAs, requireReadAs } from "../../../auth/index.js";
import type { Submission } from "../../../ledger/commands.js";
import { externalPartyCannotSubmit, type SubmitOutcome } from "../../../ledger/engine.js";
import { errors } from "../../../ledger/errors.js";
import { submissionFromProto } from "../../convert/commands-proto.js";
import { defaultTransactionFormat, transactionFormatOf } from "../../convert/format-proto.js";
import { authenticate } from "./authenticate.js";
import { requireFormatReaders } from "./format-claims.js";
import type { TransactionFormat } from "../../../ledger/event-format.js";
import { guard, toConnectError } from "./connect-error.js";
import type { LedgerApi } from "./ledger-api.js";
import type { HandlerContext } from "@connectrpc/connect";

async function prepare(api: LedgerApi, commands: Commands | undefined, ctx: HandlerContext, format?: TransactionFormat): Promise<Submission> {
  const user = await authenticate(api, ctx);
  requireFormatReaders(user, format);
  // Canton authorizes the request's claims before it validates the request: a caller without the
  // rights learns nothing from it, not even whether the parties it names exist.
  const userId = commands?.userId || user.id;
  if (userId !== user.id && !user.rights.some((r) => r.kind === "ParticipantAdmin")) {
    throw errors.permissionDenied(`the token's user ${user.id} may not submit as user ${userId}`);
  }
  requireActAs(user, commands?.actAs ?? []);
  requireReadAs(user, commands?.readAs ?? []);
  const submission = await submissionFromProto(commands, user.id, api.registry, api.store);
  await refuseExternalActAs(api, submission.actAs);
  // One synchronizer here: commands routed to any other one cannot be submitted (Canton's routing check).
  if (commands?.synchronizerId && commands.synchronizerId !== api.identity.synchronizerId) throw errors.invalidPrescribedSynchronizer(commands.synchronizerId);
  return submission;
}

/** An external party's key is held outside the node: it authorizes only signed interactive submissions. */
/** Refused before anything is written, as Canton refuses it at submission (the engine refuses it too). */
async function refuseExternalActAs(api: LedgerApi, actAs: readonly string[]): Promise<void> {
  const external = await api.ledger.externalActAs(actAs);
  if (external) throw externalPartyCannotSubmit(external);
}

function committed(api: LedgerApi, outcome: SubmitOutcome) {
  if (outcome.kind === "rejected") throw toConnectError(outcome.error, api.log, outcome.completion.submissionId);
  return outcome;
}

export function commandService(api: LedgerApi): ServiceImpl<typeof CommandService> {
  return {
    submitAndWait: (req, ctx) =>
      guard(api.log, async () => {
        const outcome = committed(api, await api.ledger.submit(await prepare(api, req.commands, ctx)));
        return { updateId: outcome.transaction.updateId, completionOffset: outcome.transaction.offset };
      }),
    submitAndWaitForTransaction: (req, ctx) =>
      guard(api.log, async () => {
        const asked = req.transactionFormat ? transactionFormatOf(req.transactionFormat, api.registry) : undefined;
        const submission = await prepare(api, req.commands, ctx, asked);
        const format = asked ?? defaultTransactionFormat([...submission.actAs, ...submission.readAs]);
        const outcome = committed(api, await api.ledger.submit(submission));
        return { transaction: api.encoder.transaction(outcome.transaction, format, true) };
      }),
    submitAndWaitForTransactionTree: () =>
      guard(api.log, async () => {
        throw errors.unimplemented("SubmitAndWaitForTransactionTree is deprecated; use SubmitAndWaitForTransaction with TRANSACTION_SHAPE_LEDGER_EFFECTS");
      }),
  };
}

export function commandSubmissionService(api: LedgerApi): ServiceImpl<typeof CommandSubmissionService> {
  return {
    submit: (req, ctx) =>
      guard(api.log, async () => {
        const submission = await prepare(api, req.commands, ctx);
        // The outcome arrives as a completion. The answer waits until that completion (the
        // transaction or its rejection) is durable: acknowledged means durable, and an answer
        // sent before the commit left, after a kill -9, a command with no completion ever.
        await api.ledger.submit(submission);
        return create(SubmitResponseSchema, {});
      }),
  };
}
