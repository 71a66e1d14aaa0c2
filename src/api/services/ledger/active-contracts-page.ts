/**
 * GetActiveContractsPage (`/v2/state/active-contracts-page`, Canton 3.5's paginated ACS): pages of
 * the snapshot at one offset. The snapshot at a fixed offset never changes, so a page is the
 * contracts after the last one of the page before, in creation order, read from the store from
 * there on (`activeContractsPage`): a page costs its own contracts, not those before it. The page
 * token is opaque (page-token.ts) and carries the offset, a digest of the event format and that
 * creation position: a token used with another offset or format, or malformed, is
 * INVALID_ARGUMENT rather than a page of something else; a forged position only pages from
 * elsewhere in what the caller may read anyway.
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
import type { EventFormat } from "../../../ledger/event-format.js";
import type { ContractRecord } from "../../../ledger/records.js";
import type { CreationPosition } from "../../../ledger/store-port.js";
import { eventFormatOf, readersOf } from "../../convert/format-proto.js";
import { acsEntryOf, checkSnapshotOffset, type AcsEntry } from "./acs-snapshot.js";
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
  /** The last contract of the page before. */
  readonly after: CreationPosition;
}

/** Contracts read from the store at most at once when the format leaves some out. */
const MAX_READ = 1000;

const invalidToken = () => errors.invalidRequest("Invalid page token");

function formatDigest(req: GetActiveContractsPageRequest): string {
  const bytes = req.eventFormat ? toBinary(EventFormatSchema, req.eventFormat) : new Uint8Array(0);
  return createHash("sha256").update(bytes).digest("hex").slice(0, 16);
}

function decodePosition(token: string): Position | undefined {
  if (token === "") return undefined;
  const m = /^(\d{1,19}):([0-9a-f]{16}):(\d{1,19})\.(\d{1,9})$/.exec(decodePageToken(token));
  if (!m) throw invalidToken();
  return { offset: BigInt(m[1]), formatDigest: m[2], after: { offset: BigInt(m[3]), nodeId: Number(m[4]) } };
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

/**
 * The entries the format shows after `after`, at most `size` (fewer once their payloads pass
 * PAGE_MAX_BYTES), and the position of the last one if another entry follows it. The store is
 * read in chunks from `after` on, each at most PAGE_MAX_BYTES of records; a chunk grows while the
 * format leaves contracts out.
 */
async function readPage(api: LedgerApi, format: EventFormat, offset: bigint, after: CreationPosition | undefined, size: number) {
  const readers = readersOf(format);
  const parties = readers === "any" ? undefined : readers;
  const page: AcsEntry[] = [];
  let bytes = 0;
  let last: CreationPosition | undefined;
  let limit = size + 1;
  for (let from = after; ; ) {
    // Read no further than one page's bytes either: 1,000 contracts of 60 KB were 60 MB decoded.
    const chunk: ContractRecord[] = await api.store.activeContractsPage({ parties, activeAtOffset: offset, limit, maxBytes: PAGE_MAX_BYTES, ...(from ? { after: from } : {}) });
    for (const c of chunk) {
      const entry = acsEntryOf(api, format, readers, c);
      if (!entry) continue;
      if (page.length === size || (page.length > 0 && bytes >= PAGE_MAX_BYTES)) return { page, last };
      page.push(entry);
      bytes += jsonLength(c.payload);
      last = { offset: c.createdOffset, nodeId: c.nodeId };
    }
    // A short chunk may have been cut by its size: only an empty one is the end.
    if (chunk.length === 0) return { page, last: undefined };
    from = { offset: chunk[chunk.length - 1]!.createdOffset, nodeId: chunk[chunk.length - 1]!.nodeId };
    limit = Math.min(2 * limit, MAX_READ);
    // The store answers at once: a format that leaves most out would walk the snapshot in one turn.
    await new Promise((resolve) => setImmediate(resolve));
  }
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
        const { page, last } = await readPage(api, format, offset, from?.after, size);
        const nextPageToken = last ? encodePageToken(`${offset}:${digest}:${last.offset}.${last.nodeId}`) : undefined;
        return { activeContracts: page, activeAtOffset: offset, nextPageToken };
      }),
  };
}
