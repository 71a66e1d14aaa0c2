/**
 * UpdateService: the transaction stream and single-update lookups, projected for the reader. An
 * open-ended stream carries offset checkpoints (watched-tail.ts); lookups never do.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { TransactionFormat as TransactionFormatProto, UpdateFormat } from "../../../../gen/com/daml/ledger/api/v2/transaction_filter_pb.js";
import { type GetUpdatesResponseSchema, UpdateService } from "../../../../gen/com/daml/ledger/api/v2/update_service_pb.js";
import { isParticipantAdmin, requireReadAs } from "../../../auth/index.js";
import { errors } from "../../../ledger/errors.js";
import type { TransactionFormat } from "../../../ledger/event-format.js";
import type { TransactionRecord } from "../../../ledger/records.js";
import { tail } from "../../../ledger/streams.js";
import { defaultTransactionFormat, eventFormatOf, transactionFormatOf } from "../../convert/format-proto.js";
import { offsetCheckpointToProto } from "../../convert/ledger-proto.js";
import { authenticate } from "./authenticate.js";
import { requireFormatReaders } from "./format-claims.js";
import { guard, guardStream } from "./connect-error.js";
import { limitedStream } from "./limited-stream.js";
import { STREAM_PAGE_BYTES } from "../../../ledger/stream-page-budget.js";
import { watchedTail } from "./watched-tail.js";
import type { UpdateWatchKey } from "../../../ledger/update-hub.js";
import type { LedgerApi } from "./ledger-api.js";

type UpdatesResponse = MessageInitShape<typeof GetUpdatesResponseSchema>;

interface LegacyLookup {
  readonly requestingParties: string[];
  readonly transactionFormat?: TransactionFormatProto;
}

async function authorizedFormat(api: LedgerApi, ctx: HandlerContext, format: TransactionFormat): Promise<TransactionFormat> {
  requireFormatReaders(await authenticate(api, ctx), format);
  return format;
}

function formatOfUpdateFormat(api: LedgerApi, f: UpdateFormat | undefined): TransactionFormat {
  if (!f) throw errors.missingField("update_format");
  if (!f.includeTransactions) throw errors.invalidArgument("update_format.include_transactions must be set: only transactions are served by this participant");
  return transactionFormatOf(f.includeTransactions, api.registry);
}

/** The parties an update stream's hub watch follows: those its format names, or any for a wildcard. */
function watchedParties(format: TransactionFormat): UpdateWatchKey {
  return format.eventFormat.anyParty ? "any" : new Set(format.eventFormat.byParty.keys());
}

export function updateService(api: LedgerApi): ServiceImpl<typeof UpdateService> {
  const byId = (tx: TransactionRecord | undefined, format: TransactionFormat, what: string) => {
    const transaction = tx && api.encoder.transaction(tx, format, false);
    if (!transaction) throw errors.updateNotFound(what);
    return { update: { case: "transaction" as const, value: transaction } };
  };
  /**
   * The deprecated lookups take either a transaction format (what current clients, the wallet SDK
   * among them, send) or the older requesting parties, never both (Canton's rule).
   */
  const legacyFormat = async (ctx: HandlerContext, req: LegacyLookup): Promise<TransactionFormat> => {
    if (req.transactionFormat) {
      if (req.requestingParties.length > 0) throw errors.invalidArgument("requesting_parties must be empty when transaction_format is set");
      return authorizedFormat(api, ctx, transactionFormatOf(req.transactionFormat, api.registry));
    }
    if (req.requestingParties.length === 0) throw errors.missingField("requesting_parties");
    const user = await authenticate(api, ctx);
    if (!isParticipantAdmin(user)) requireReadAs(user, req.requestingParties);
    return defaultTransactionFormat(req.requestingParties);
  };
  const legacy = (tx: TransactionRecord | undefined, format: TransactionFormat, what: string) => {
    const transaction = tx && api.encoder.transaction(tx, format, false);
    if (!transaction) throw errors.updateNotFound(what);
    return { transaction };
  };
  return {
    getUpdates: (req, ctx) =>
      guardStream(api.log, () => limitedStream(api, ctx, async function* (signal, pages) {
        const format = await authorizedFormat(
          api,
          ctx,
          req.updateFormat
            ? formatOfUpdateFormat(api, req.updateFormat)
            : { eventFormat: eventFormatOf(req.filter, req.verbose, api.registry), shape: "ACS_DELTA" },
        );
        if (req.beginExclusive < 0n) throw errors.invalidField("begin_exclusive", "offset must not be negative");
        const end = await api.store.ledgerEnd();
        if (req.beginExclusive > end) throw errors.offsetAfterLedgerEnd(req.beginExclusive, end);
        // Canton checks both ends against the ledger end (a bounded stream does not wait for its end).
        if (req.endInclusive !== undefined && req.endInclusive > end) throw errors.offsetAfterLedgerEnd(req.endInclusive, end, "End");
        if (req.endInclusive !== undefined && req.endInclusive < req.beginExclusive) {
          throw errors.invalidArgument(`end_inclusive (${req.endInclusive}) is before begin_exclusive (${req.beginExclusive})`);
        }
        const page = (b: bigint, e: bigint, l: number, m?: number) => api.store.transactions(b, e, l, m);
        const project = (tx: TransactionRecord): UpdatesResponse | undefined => {
          const transaction = api.encoder.transaction(tx, format, false);
          return transaction && { update: { case: "transaction", value: transaction } };
        };
        if (req.endInclusive !== undefined) {
          // Canton checkpoints only open-ended (tailing) streams.
          for await (const tx of tail(api.store, page, { beginExclusive: req.beginExclusive, endInclusive: req.endInclusive, signal, maxPageBytes: STREAM_PAGE_BYTES, pages })) {
            const response = project(tx);
            if (response) yield response;
          }
          return;
        }
        yield* watchedTail<TransactionRecord, UpdatesResponse>(api.updates, api.updates.watch(watchedParties(format)), api.store, {
          page,
          maxPageBytes: STREAM_PAGE_BYTES,
          pages,
          beginExclusive: req.beginExclusive,
          signal,
          project,
          checkpoint: (at) => ({ update: { case: "offsetCheckpoint", value: offsetCheckpointToProto(at, api.identity) } }),
        });
      })),
    getUpdateById: (req, ctx) =>
      guard(api.log, async () => {
        if (!req.updateId) throw errors.missingField("update_id");
        const format = await authorizedFormat(api, ctx, formatOfUpdateFormat(api, req.updateFormat));
        return byId(await api.store.transactionById(req.updateId), format, `update id ${req.updateId}`);
      }),
    getUpdateByOffset: (req, ctx) =>
      guard(api.log, async () => {
        if (req.offset <= 0n) throw errors.invalidField("offset", "offset must be positive");
        const format = await authorizedFormat(api, ctx, formatOfUpdateFormat(api, req.updateFormat));
        return byId(await api.store.transactionByOffset(req.offset), format, `offset ${req.offset}`);
      }),
    getUpdateTrees: () =>
      guardStream(api.log, async function* () {
        throw errors.unimplemented("GetUpdateTrees is deprecated; use GetUpdates with TRANSACTION_SHAPE_LEDGER_EFFECTS");
      }),
    getTransactionTreeByOffset: () => guard(api.log, async () => { throw errors.unimplemented("deprecated; use GetUpdateByOffset"); }),
    getTransactionTreeById: () => guard(api.log, async () => { throw errors.unimplemented("deprecated; use GetUpdateById"); }),
    getTransactionByOffset: (req, ctx) =>
      guard(api.log, async () => {
        if (req.offset <= 0n) throw errors.invalidField("offset", "offset must be positive");
        const format = await legacyFormat(ctx, req);
        return legacy(await api.store.transactionByOffset(req.offset), format, `offset ${req.offset}`);
      }),
    getTransactionById: (req, ctx) =>
      guard(api.log, async () => {
        if (!req.updateId) throw errors.missingField("update_id");
        const format = await legacyFormat(ctx, req);
        return legacy(await api.store.transactionById(req.updateId), format, `update id ${req.updateId}`);
      }),
  };
}
