/**
 * interactive.InteractiveSubmissionService: prepare a transaction for external signing
 * (prepare-submission.ts), execute it with the parties' signatures (execute-submission.ts), and
 * the preferred-package lookups clients use to build commands against the packages parties vet.
 * This node vets exactly the packages of its template registry, one version per package name.
 */
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { InteractiveSubmissionService } from "../../../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { isParticipantAdmin } from "../../../auth/index.js";
import { errors } from "../../../ledger/errors.js";
import { defaultTransactionFormat, transactionFormatOf } from "../../convert/format-proto.js";
import { authenticate } from "./authenticate.js";
import type { TransactionFormat } from "../../../ledger/event-format.js";
import { guard, toConnectError } from "./connect-error.js";
import { executionOf, type ExecuteRequest } from "./execute-submission.js";
import type { LedgerApi } from "./ledger-api.js";
import { prepareSubmission } from "./prepare-submission.js";

async function checkSynchronizer(api: LedgerApi, synchronizerId: string): Promise<void> {
  if (synchronizerId && synchronizerId !== api.identity.synchronizerId) throw errors.invalidPrescribedSynchronizer(synchronizerId);
}

/** Any authenticated user may ask which packages parties vet (Canton: public to authenticated callers). */
async function checkCaller(api: LedgerApi, ctx: HandlerContext, parties: readonly string[]): Promise<void> {
  const user = await authenticate(api, ctx);
  if (isParticipantAdmin(user)) return;
  for (const p of parties) if (!(await api.store.party(p))) throw errors.unknownParties([p]);
}

function preferredPackage(api: LedgerApi, packageName: string) {
  if (!packageName) throw errors.missingField("package_name");
  return api.registry.packageNamed(packageName);
}

export function interactiveSubmissionService(api: LedgerApi): ServiceImpl<typeof InteractiveSubmissionService> {
  const run = async (req: ExecuteRequest, ctx: HandlerContext, format?: TransactionFormat) => {
    const { submission, pinned } = await executionOf(api, req, ctx, format);
    const outcome = await api.ledger.submit(submission, pinned);
    if (outcome.kind === "rejected") throw toConnectError(outcome.error, api.log, outcome.completion.submissionId);
    return outcome;
  };
  return {
    prepareSubmission: (req, ctx) => guard(api.log, () => prepareSubmission(api, req, ctx)),
    executeSubmission: (req, ctx) =>
      guard(api.log, async () => {
        const { submission, pinned } = await executionOf(api, req, ctx);
        // The outcome arrives as a completion, as with CommandSubmissionService.Submit, and the
        // answer waits until that completion is durable.
        await api.ledger.submit(submission, pinned);
        return {};
      }),
    executeSubmissionAndWait: (req, ctx) =>
      guard(api.log, async () => {
        const outcome = await run(req, ctx);
        return { updateId: outcome.transaction.updateId, completionOffset: outcome.transaction.offset };
      }),
    executeSubmissionAndWaitForTransaction: (req, ctx) =>
      guard(api.log, async () => {
        const format = req.transactionFormat ? transactionFormatOf(req.transactionFormat, api.registry) : undefined;
        const outcome = await run(req, ctx, format);
        return { transaction: api.encoder.transaction(outcome.transaction, format ?? defaultTransactionFormat(outcome.transaction.submitters), true) };
      }),
    getPreferredPackageVersion: (req, ctx) =>
      guard(api.log, async () => {
        await checkCaller(api, ctx, req.parties);
        await checkSynchronizer(api, req.synchronizerId);
        const found = preferredPackage(api, req.packageName);
        return found ? { packagePreference: { packageReference: found, synchronizerId: api.identity.synchronizerId } } : {};
      }),
    getPreferredPackages: (req, ctx) =>
      guard(api.log, async () => {
        await checkCaller(api, ctx, req.packageVettingRequirements.flatMap((r) => r.parties));
        await checkSynchronizer(api, req.synchronizerId);
        if (req.packageVettingRequirements.length === 0) throw errors.missingField("package_vetting_requirements");
        const packageReferences = req.packageVettingRequirements.map((r) => {
          const found = preferredPackage(api, r.packageName);
          if (!found) throw errors.invalidArgument(`No package with name ${r.packageName} is vetted by the parties ${r.parties.join(", ")}`);
          return found;
        });
        return { packageReferences, synchronizerId: api.identity.synchronizerId };
      }),
  };
}
