/**
 * CommandCompletionService: completions of the given user's commands for the given parties, in
 * offset order, with offset checkpoints when the ledger moved on without any (watched-tail.ts).
 */
import type { ServiceImpl } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { CommandCompletionService, type CompletionStreamResponseSchema } from "../../../../gen/com/daml/ledger/api/v2/command_completion_service_pb.js";
import { isParticipantAdmin, requireReadAs } from "../../../auth/index.js";
import { errors } from "../../../ledger/errors.js";
import { isPartyId } from "../../../ledger/ids.js";
import { offsetCheckpointToProto } from "../../convert/ledger-proto.js";
import { authenticate } from "./authenticate.js";
import { completionResponse } from "../../convert/completion-wire.js";
import { guardStream } from "./connect-error.js";
import { watchedTail } from "./watched-tail.js";
import type { CompletionRecord } from "../../../ledger/records.js";
import { limitedStream } from "./limited-stream.js";
import type { LedgerApi } from "./ledger-api.js";

type Response = MessageInitShape<typeof CompletionStreamResponseSchema>;

export function completionService(api: LedgerApi): ServiceImpl<typeof CommandCompletionService> {
  return {
    completionStream: (req, ctx) =>
      guardStream(api.log, () => limitedStream(api, ctx, async function* (signal) {
        const user = await authenticate(api, ctx);
        if (req.parties.length === 0) throw errors.missingField("parties");
        for (const p of req.parties) if (!isPartyId(p)) throw errors.invalidField("parties", `Invalid party id ${JSON.stringify(p)}`);
        const userId = req.userId || user.id;
        if (userId !== user.id && !isParticipantAdmin(user)) throw errors.permissionDenied(`may not read completions of user ${userId}`);
        if (!isParticipantAdmin(user)) requireReadAs(user, req.parties);
        if (req.beginExclusive < 0n) throw errors.invalidField("begin_exclusive", "offset must not be negative");
        const end = await api.store.ledgerEnd();
        if (req.beginExclusive > end) throw errors.offsetAfterLedgerEnd(req.beginExclusive, end);
        const parties = new Set(req.parties);
        yield* watchedTail<CompletionRecord, Response>(api.completions, api.completions.watch(userId, parties), api.store, {
          page: (b, e, l) => api.store.completions(b, e, l, userId),
          beginExclusive: req.beginExclusive,
          signal,
          project: (c) =>
            c.userId === userId && c.actAs.some((p) => parties.has(p))
              ? (completionResponse(c, api.identity) as Response)
              : undefined,
          checkpoint: (at) => ({ completionResponse: { case: "offsetCheckpoint", value: offsetCheckpointToProto(at, api.identity) } }),
        });
      })),
  };
}
