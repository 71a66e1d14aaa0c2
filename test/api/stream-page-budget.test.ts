/**
 * Store pages held by streams whose clients stopped reading are capped across the node and per
 * user (stream-page-budget.ts). Before the cap, every paused GetUpdates stream kept its page and
 * the message it was writing: 150 of them over 3 MB transactions held ~900 MB, and 1,000 (five
 * users at the per-user stream limit) would have run the node out of memory. Now a user's paused
 * streams hold at most its share; its further reads wait (slower, not refused) and other users'
 * streams go on.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import http2 from "node:http2";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { TransactionShape } from "../../gen/com/daml/ledger/api/v2/transaction_filter_pb.js";
import { GetUpdatesRequestSchema } from "../../gen/com/daml/ledger/api/v2/update_service_pb.js";
import { STREAM_PAGE_BYTES } from "../../src/ledger/stream-page-budget.js";
import { jsonSize } from "../../src/util/json-size.js";
import { IOU, startTestServer, type TestServer } from "../support/test-server.js";

const MB = 1024 * 1024;
type Who = { party: string; user: string; token: string };

let s: TestServer;
let alice: Who;
let bob: Who;
let end: number;

beforeAll(async () => {
  const config = join(mkdtempSync(join(tmpdir(), "ccwallet-page-budget-")), "config.json");
  writeFileSync(config, JSON.stringify({ ledger: { maxStreamPageBytes: 6 * MB, maxStreamPageBytesPerUser: 3 * MB } }));
  s = await startTestServer({ CCWALLET_CONFIG: config });
  alice = await s.partyUser("spb-alice");
  bob = await s.partyUser("spb-bob");
  // 6 transactions of ~360 KB (six Ious with 60,000-character currencies, bob an observer): a
  // stream's page is three of them (it ends with the row that reaches 1 MiB).
  const currency = "X".repeat(60_000);
  const iou = { CreateCommand: { templateId: IOU, createArguments: { issuer: alice.party, owner: alice.party, currency, amount: "1", observers: [bob.party] } } };
  for (let i = 0; i < 6; i++) {
    const r = await s.json("POST", "/v2/commands/submit-and-wait", { commands: Array.from({ length: 6 }, () => iou), commandId: `spb-${i}`, actAs: [alice.party] }, alice.token);
    expect(r.status, r.text).toBe(200);
  }
  end = (await s.json("GET", "/v2/state/ledger-end")).body.offset;
}, 60_000);
afterAll(() => s?.stop());

const wildcard = (party: string) => ({ filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } } });
const updateFormat = (party: string) => ({ includeTransactions: { eventFormat: wildcard(party), transactionShape: "TRANSACTION_SHAPE_ACS_DELTA" } });

const PROTOCOLS = {
  grpc: { "content-type": "application/grpc", te: "trailers" },
  connect: { "content-type": "application/connect+proto", "connect-protocol-version": "1" },
  "grpc-web": { "content-type": "application/grpc-web+proto", "x-grpc-web": "1" },
} as const;

/**
 * Open-ended GetUpdates calls on the gRPC port whose client never reads; returns how to end them:
 * each stream reset (RST_STREAM), then the connection closed.
 */
function pausedStreams(who: Who, count: number, protocol: keyof typeof PROTOCOLS = "grpc"): () => void {
  const request = toBinary(
    GetUpdatesRequestSchema,
    create(GetUpdatesRequestSchema, {
      beginExclusive: 0n,
      updateFormat: {
        includeTransactions: {
          transactionShape: TransactionShape.ACS_DELTA,
          eventFormat: { filtersByParty: { [who.party]: { cumulative: [{ identifierFilter: { case: "wildcardFilter", value: { includeCreatedEventBlob: false } } }] } } },
        },
      },
    }),
  );
  const frame = Buffer.alloc(5 + request.length);
  frame.writeUInt32BE(request.length, 1);
  Buffer.from(request).copy(frame, 5);
  const session = http2.connect(s.grpc);
  session.on("error", () => undefined);
  const streams = Array.from({ length: count }, () => {
    const stream = session.request({ ":method": "POST", ":path": "/com.daml.ledger.api.v2.UpdateService/GetUpdates", authorization: `Bearer ${who.token}`, ...PROTOCOLS[protocol] });
    stream.on("error", () => undefined);
    stream.end(frame);
    stream.pause();
    return stream;
  });
  return () => {
    for (const stream of streams) stream.close(http2.constants.NGHTTP2_CANCEL);
    session.destroy();
  };
}

const budget = () => s.server.api.streamPages;

async function until(what: () => boolean, ms = 10_000): Promise<void> {
  for (const start = Date.now(); !what(); ) {
    if (Date.now() - start > ms) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const updateIds = (body: { update: { Transaction?: { value: { updateId: string } } } }[]) => body.flatMap((u) => (u.update.Transaction ? [u.update.Transaction.value.updateId] : []));

describe("the page budget of streams", () => {
  it("holds a user's paused streams to its share, keeps its further reads waiting, and serves other users", async () => {
    const close = pausedStreams(alice, 4);
    try {
      // Two pages fit alice's 3 MiB share (the third admission would pass it); two streams wait.
      await until(() => budget().waitingStreams === 2);
      expect(budget().heldBytes).toBeGreaterThan(2 * MB);
      expect(budget().heldBytes).toBeLessThanOrEqual(3 * MB);

      // Bob reads everything at once.
      const read = { beginExclusive: 0, endInclusive: end, updateFormat: updateFormat(bob.party) };
      const forBob = await s.json("POST", "/v2/updates", read, bob.token);
      expect(forBob.status, forBob.text.slice(0, 200)).toBe(200);
      expect(updateIds(forBob.body)).toHaveLength(6);

      // Alice's own read waits for her paused streams' pages, past its idle timeout: waiting for
      // room is not idleness (it was answered 200 with what it had, nothing, at the timeout)...
      let answered = false;
      const forAlice = s.json("POST", "/v2/updates?stream_idle_timeout_ms=200", { ...read, updateFormat: updateFormat(alice.party) }, alice.token).finally(() => (answered = true));
      await new Promise((r) => setTimeout(r, 600));
      expect(answered).toBe(false);
      expect(budget().waitingStreams).toBe(3);
      // ...and goes on once they end.
      close();
      const r = await forAlice;
      expect(r.status, r.text.slice(0, 200)).toBe(200);
      expect(updateIds(r.body)).toEqual(updateIds(forBob.body));
    } finally {
      close();
    }
    await until(() => budget().heldBytes === 0 && budget().waitingStreams === 0);
  });

  // connect-node's write waits for a drain that a reset stream never sends: the stream's own
  // finally never ran, and its page and stream slot were held until the node restarted.
  it.each(["connect", "grpc-web", "grpc"] as const)("gives a paused %s stream's page and slot back when the client resets it", async (protocol) => {
    const close = pausedStreams(alice, 2, protocol);
    await until(() => budget().heldBytes > 2 * MB);
    expect(s.server.api.streams.open).toBe(2);
    close();
    await until(() => budget().heldBytes === 0 && s.server.api.streams.open === 0);
  });
});

describe("active-contract streams", () => {
  it("read a snapshot in chunks of about a megabyte (500 contracts of 60 KB made one of 30 MB), and give every contract", async () => {
    const read = vi.spyOn(s.server.store, "activeContractsPage");
    try {
      const r = await s.json("POST", "/v2/state/active-contracts", { eventFormat: wildcard(bob.party), activeAtOffset: end }, bob.token);
      expect(r.status, r.text.slice(0, 200)).toBe(200);
      expect(r.body).toHaveLength(36);
      const chunks = await Promise.all(read.mock.results.map((x) => x.value as Promise<unknown[]>));
      expect(read.mock.calls.every(([q]) => q.maxBytes === STREAM_PAGE_BYTES)).toBe(true);
      // Chunks of about a megabyte (the 18th contract of 60 KB reaches it), then an empty read: the end.
      expect(chunks.map((c) => c.length)).toEqual([18, 18, 0]);
      for (const c of chunks) expect(jsonSize(c)).toBeLessThan(STREAM_PAGE_BYTES + 70_000);
    } finally {
      read.mockRestore();
    }
  });
});
