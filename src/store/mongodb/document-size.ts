/**
 * MongoDB's limit on one document (16 MiB: the `maxBsonObjectSize` of `hello`), checked before the
 * transaction. A write over it fails inside the transaction and takes the whole batch with it, so
 * the request that would write it is refused alone, before the others are committed together (as
 * the SQLite store rolls back only the request whose write threw).
 *
 * Sizes are the BSON sizes of the very documents the commit writes, measured with the driver's
 * `BSON.calculateObjectSize` under the driver's own serialisation option (`ignoreUndefined: false`:
 * an undefined field is written as null). The offset is not known yet; the documents are measured
 * at the widest one an int64 holds, so the size is an upper bound for every real offset.
 */
import { BSON } from "mongodb";
import type { Document } from "mongodb";
import type { PreparedRequest } from "./prepared-request.js";
import { documentsAt } from "./prepared-request.js";

/** `maxBsonObjectSize` when the server does not say (every supported server says 16 MiB). */
export const DEFAULT_MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

/** The largest int64, whose decimal form is as long as an offset's can get. */
const WIDEST_OFFSET = 2n ** 63n - 1n;

export class DocumentTooLargeError extends Error {
  constructor(
    /** Which document: "transaction", "completion", "contract <id>", "deduplication entry". */
    readonly document: string,
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(
      `the ${document} of this commit would be a ${bytes}-byte BSON document, over MongoDB's limit of ${limit} bytes ` +
        "per document: the request is refused and nothing of it is written",
    );
    this.name = "DocumentTooLargeError";
  }
}

export function bsonSize(doc: Document): number {
  return BSON.calculateObjectSize(doc, { ignoreUndefined: false });
}

/**
 * The first document of the request that does not fit, as an error, or undefined if all fit. The
 * driver refuses a document of exactly the limit as well (its bulk writes, which `insertMany` uses,
 * test `size >= maxBsonObjectSize`), so a document fits only below it.
 */
export function oversizedDocument(prepared: PreparedRequest, limit: number): DocumentTooLargeError | undefined {
  const docs = documentsAt(prepared, WIDEST_OFFSET);
  const named: [string, Document | undefined][] = [
    ["transaction", docs.transaction],
    ["completion", docs.completion],
    ["deduplication entry", docs.dedup],
    ...docs.contracts.map((c): [string, Document] => [`contract ${c._id}`, c]),
  ];
  for (const [name, doc] of named) {
    if (doc === undefined) continue;
    const bytes = bsonSize(doc);
    if (bytes >= limit) return new DocumentTooLargeError(name, bytes, limit);
  }
  return undefined;
}
