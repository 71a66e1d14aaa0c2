/**
 * interactive.InteractiveSubmissionService: prepare a transaction for external signing, execute it
 * with the parties' signatures. Not served yet (issue #13): every method authenticates the caller
 * and answers UNSUPPORTED_OPERATION (gRPC UNIMPLEMENTED, HTTP 501), so clients learn it is absent
 * rather than meeting a 404.
 */
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { InteractiveSubmissionService } from "../../../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { errors } from "../../../ledger/errors.js";
import { authenticate } from "./authenticate.js";
import { guard } from "./connect-error.js";
import type { LedgerApi } from "./ledger-api.js";

export function interactiveSubmissionService(api: LedgerApi): ServiceImpl<typeof InteractiveSubmissionService> {
  const notYet = (method: string) => (_req: unknown, ctx: HandlerContext) =>
    guard(api.log, async () => {
      await authenticate(api, ctx);
      throw errors.unimplemented(`InteractiveSubmissionService.${method} is not available on this participant yet`);
    });
  return {
    prepareSubmission: notYet("PrepareSubmission"),
    executeSubmission: notYet("ExecuteSubmission"),
    executeSubmissionAndWait: notYet("ExecuteSubmissionAndWait"),
    executeSubmissionAndWaitForTransaction: notYet("ExecuteSubmissionAndWaitForTransaction"),
    getPreferredPackageVersion: notYet("GetPreferredPackageVersion"),
    getPreferredPackages: notYet("GetPreferredPackages"),
  };
}
