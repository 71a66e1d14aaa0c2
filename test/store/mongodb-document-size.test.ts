/**
 * The MongoDB adapter's documents, encoded once before the transaction, and the size check that
 * refuses a request whose document would pass MongoDB's 16 MiB limit. Sizes are compared with the
 * driver's own BSON serialisation; no server is needed.
 */
import { BSON } from "mongodb";
import { describe, expect, it } from "vitest";
import { decodeRecord, encodeRecord } from "../../src/store/codec.js";
import { DEFAULT_MAX_DOCUMENT_BYTES, DocumentTooLargeError, bsonSize, oversizedDocument } from "../../src/store/mongodb/document-size.js";
import { withBigint } from "../../src/store/codec.js";
import { documentsAt, prepareRequest } from "../../src/store/mongodb/prepared-request.js";
import { rejectionRequest, transactionRequest } from "./mongodb-requests.js";

describe("withBigint", () => {
  it("writes what encodeRecord writes for the record with that bigint added last", () => {
    const record = { commandId: "c", recordTime: 5n, nodes: [{ payload: { n: -3n } }] };
    for (const offset of [0n, 7n, 2n ** 63n - 1n]) {
      const spliced = withBigint(encodeRecord(record), "offset", offset);
      expect(spliced).toBe(encodeRecord({ ...record, offset }));
      expect(decodeRecord(spliced)).toEqual({ ...record, offset });
    }
  });

  it("adds the field to an empty object without a stray comma", () => {
    expect(withBigint("{}", "offset", 12n)).toBe('{"offset":{"$n":"12"}}');
  });
});

describe("documentsAt", () => {
  it("builds the documents the commit writes, with the offset everywhere it belongs", () => {
    const request = transactionRequest({ dedup: true });
    const docs = documentsAt(prepareRequest(request), 41n);
    const create = request.creates[0];
    expect(docs.contracts).toEqual([
      {
        _id: create.contractId,
        templateId: create.templateId,
        stakeholders: ["alice::1220aa"],
        createdOffset: 41n,
        nodeId: 0,
        archivedOffset: null,
        record: encodeRecord({ ...create, createdOffset: 41n }),
      },
    ]);
    expect(docs.transaction).toEqual({ _id: 41n, updateId: request.transaction.updateId, record: encodeRecord({ ...request.transaction, offset: 41n }) });
    expect(docs.completion).toEqual({ _id: 41n, userId: "user-1", record: encodeRecord({ ...request.completion, offset: 41n }) });
    expect(docs.dedup).toEqual({ _id: request.dedup!.changeKey, offset: 41n, recordTime: 1_000n });
  });

  it("gives a rejection its completion only", () => {
    const request = rejectionRequest();
    const docs = documentsAt(prepareRequest(request), 3n);
    expect(docs).toEqual({ contracts: [], completion: { _id: 3n, userId: "user-1", record: encodeRecord({ ...request.completion, offset: 3n }) } });
  });
});

describe("bsonSize", () => {
  it("is the length of the driver's serialisation, undefined fields written as null", () => {
    const doc = { _id: 5n, record: "é".repeat(10), userId: undefined };
    // The driver serialises commands with ignoreUndefined: false (an undefined field is null).
    expect(bsonSize(doc)).toBe(BSON.serialize(doc, { ignoreUndefined: false }).length);
    expect(bsonSize(doc)).toBe(BSON.calculateObjectSize({ ...doc, userId: null }));
  });
});

describe("oversizedDocument", () => {
  it("accepts a request whose documents all fit", () => {
    expect(oversizedDocument(prepareRequest(transactionRequest()), DEFAULT_MAX_DOCUMENT_BYTES)).toBeUndefined();
    expect(oversizedDocument(prepareRequest(rejectionRequest()), DEFAULT_MAX_DOCUMENT_BYTES)).toBeUndefined();
  });

  it("refuses a request whose transaction document would pass 16 MiB, naming it and its size", () => {
    // The payload string sits in the contract and in the transaction's create node: 17 MB each.
    const prepared = prepareRequest(transactionRequest({ payloadChars: 17_000_000 }));
    const error = oversizedDocument(prepared, DEFAULT_MAX_DOCUMENT_BYTES);
    expect(error).toBeInstanceOf(DocumentTooLargeError);
    const docs = documentsAt(prepared, 1n);
    expect({ document: error!.document, limit: error!.limit }).toEqual({ document: "transaction", limit: 16_777_216 });
    // Measured at the widest offset: an upper bound of the real document, by the offset's digits only.
    const real = bsonSize(docs.transaction!);
    expect(error!.bytes).toBeGreaterThanOrEqual(real);
    expect(error!.bytes - real).toBe("9223372036854775807".length - "1".length);
    expect(error!.message).toBe(
      `the transaction of this commit would be a ${error!.bytes}-byte BSON document, over MongoDB's limit of 16777216 bytes per document: ` +
        "the request is refused and nothing of it is written",
    );
  });

  it("counts a document of exactly the limit as over it, since the driver refuses that one too", () => {
    const prepared = prepareRequest(transactionRequest({ payloadChars: 1_000 }));
    const widest = bsonSize(documentsAt(prepared, 2n ** 63n - 1n).transaction!);
    expect(oversizedDocument(prepared, widest + 1)).toBeUndefined();
    expect(oversizedDocument(prepared, widest)?.document).toBe("transaction");
  });

  it("names a contract when the contract is what does not fit", () => {
    const request = transactionRequest({ payloadChars: 1_000 });
    // A transaction without its create node: the contract's document is now the largest.
    const prepared = prepareRequest({ ...request, transaction: { ...request.transaction, nodes: [] } });
    const docs = documentsAt(prepared, 2n ** 63n - 1n);
    const contractBytes = bsonSize(docs.contracts[0]);
    expect(contractBytes).toBeGreaterThan(bsonSize(docs.transaction!));
    expect(oversizedDocument(prepared, contractBytes)).toMatchObject({ document: `contract ${request.creates[0].contractId}`, bytes: contractBytes });
  });
});
