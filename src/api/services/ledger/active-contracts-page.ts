/**
 * GetActiveContractsPage (`/v2/state/active-contracts-page`, Canton 3.5's paginated ACS): pages of
 * the snapshot at one offset. The snapshot at a fixed offset never changes, so a page is a slice
 * of it by position. The page token is opaque (page-token.ts) and carries the offset, a digest of
 * the event format and the position: a token used with another offset or format, or forged, is
 * INVALID_ARGUMENT rather than a page of something else.
 */
import { createHash } from "node:crypto";
import type { ServiceImpl } from "@connectrpc/connect";
import { toBinary } from "@bufbuild/protobuf";
import {
  ActiveContractsPageService,
  type GetActiveContractsPageRequest,
} from "../../../../gen/ccwallet/ledger/v2/active_contracts_page_pb.js";
import { EventFormatSchema } from "../../../../gen/com/daml/ledger/api/v2/transaction_filter_pb.js";
import { errors } from "../../../ledger/errors.js";
import { eventFormatOf } from "../../convert/format-proto.js";
import { acsEntriesWithRecords, checkSnapshotOffset, type AcsEntry } from "./acs-snapshot.js";
import { authenticate } from "./authenticate.js";
import { guard } from "./connect-error.js";
import type { LedgerApi } from "./ledger-api.js";
import { decodePageToken, encodePageToken } from "./page-token.js";
import { authorizeFormat } from "./format-claims.js";

/** Page size when the request names none, and the most a page holds (larger requests get this many). */
export const DEFAULT_PAGE_SIZE = 1000;
export const MAX_PAGE_SIZE = 1000;
/**
 * A page ends early once its contracts' payloads pass this many bytes of JSON (it always holds
 * one): 1,000 contracts of 65 KB made one answer of 153 MB, and a few unread ones held gigabytes.
 */
export const PAGE_MAX_BYTES = 4 * 1024 * 1024;

interface Position {
  readonly offset: bigint;
  readonly formatDigest: string;
  readonly skip: number;
}

const invalidToken = () => errors.invalidArgument("The submitted request has invalid arguments: Invalid page token");

function formatDigest(req: GetActiveContractsPageRequest): string {
  const bytes = req.eventFormat ? toBinary(EventFormatSchema, req.eventFormat) : new Uint8Array(0);
  return createHash("sha256").update(bytes).digest("hex").slice(0, 16);
}

function decodePosition(token: string): Position | undefined {
  if (token === "") return undefined;
  const m = /^(\d{1,19}):([0-9a-f]{16}):(\d{1,9})$/.exec(decodePageToken(token));
  if (!m) throw invalidToken();
  return { offset: BigInt(m[1]), formatDigest: m[2], skip: Number(m[3]) };
}

/** The snapshot's offset: the request's, the token's, or the ledger end; checked against the token. */
async function snapshotOffset(api: LedgerApi, req: GetActiveContractsPageRequest, from: Position | undefined, digest: string): Promise<bigint> {
  if (from && (from.formatDigest !== digest || (req.activeAtOffset !== undefined && req.activeAtOffset !== from.offset))) throw invalidToken();
  const offset = req.activeAtOffset ?? from?.offset ?? (await api.store.ledgerEnd());
  await checkSnapshotOffset(api, offset, "active_at_offset");
  return offset;
}

/** The length of a stored payload's JSON (Daml-LF JSON; a hand-built record may hold bigints). */
function jsonLength(payload: unknown): number {
  try {
    return JSON.stringify(payload).length;
  } catch {
    return JSON.stringify(payload, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)).length;
  }
}

function pageSizeOf(req: GetActiveContractsPageRequest): number {
  const size = req.maxPageSize ?? 0;
  if (size < 0) throw errors.invalidField("max_page_size", "must not be negative");
  return size === 0 ? DEFAULT_PAGE_SIZE : Math.min(size, MAX_PAGE_SIZE);
}

export function activeContractsPageService(api: LedgerApi): ServiceImpl<typeof ActiveContractsPageService> {
  return {
    getActiveContractsPage: (req, ctx) =>
      guard(api.log, async () => {
        const user = await authenticate(api, ctx);
        const format = eventFormatOf(req.eventFormat, false, api.registry);
        authorizeFormat(user, format);
        const size = pageSizeOf(req);
        const digest = formatDigest(req);
        const from = decodePosition(req.pageToken);
        const offset = await snapshotOffset(api, req, from, digest);
        const skip = from?.skip ?? 0;
        const page: AcsEntry[] = [];
        let more = false;
        let index = 0;
        let bytes = 0;
        for await (const { entry, record } of acsEntriesWithRecords(api, format, offset)) {
          if (index++ < skip) continue;
          if (page.length === size || (page.length > 0 && bytes >= PAGE_MAX_BYTES)) {
            more = true;
            break;
          }
          page.push(entry);
          bytes += jsonLength(record.payload);
        }
        const nextPageToken = more ? encodePageToken(`${offset}:${digest}:${skip + page.length}`) : undefined;
        return { activeContracts: page, activeAtOffset: offset, nextPageToken };
      }),
  };
}
