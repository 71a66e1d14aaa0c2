/**
 * OffsetCheckpoint messages on CompletionStream and GetUpdates, over real sockets: grpc-js with
 * the protos in proto/, the Connect client, and the JSON arrays. The rule (docs/decisions.md): at the
 * end of each range a stream reads (up to the ledger end it saw), if the ledger end is past the
 * last message the stream sent, it sends a checkpoint at that end with the record time there.
 * Bounded update streams and pointwise lookups never carry one.
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TransactionShape } from "../../gen/com/daml/ledger/api/v2/transaction_filter_pb.js";
import { type GetUpdatesResponse, UpdateService } from "../../gen/com/daml/ledger/api/v2/update_service_pb.js";
import { createIou, startTestServer, type TestServer } from "../support/test-server.js";

type Who = { party: string; user: string; token: string };

let s: TestServer;
let alice: Who;
let bob: Who;
let v2: any;

beforeAll(async () => {
  s = await startTestServer({ CCWALLET_TIME: "static" });
  alice = await s.partyUser("alice");
  bob = await s.partyUser("bob");
  const pkg = grpc.loadPackageDefinition(
    protoLoader.loadSync("com/daml/ledger/api/v2/command_completion_service.proto", { includeDirs: ["proto"], longs: String, enums: String, defaults: true, oneofs: true }),
  ) as any;
  v2 = pkg.com.daml.ledger.api.v2;
});
afterAll(() => s?.stop());

const ledgerEnd = async (): Promise<number> => (await s.json("GET", "/v2/state/ledger-end")).body.offset;

/** A committed create for `who`. */
async function create(who: Who): Promise<number> {
  const r = await s.json("POST", "/v2/commands/submit-and-wait", createIou(who.party).commands, who.token);
  expect(r.status).toBe(200);
  return r.body.completionOffset;
}

/** A command that fails in interpretation: a rejection completion at its own offset, no transaction. */
async function reject(who: Who): Promise<void> {
  const r = await s.json("POST", "/v2/commands/submit-and-wait", createIou(who.party, "-1").commands, who.token);
  expect(r.body.code).toBe("DAML_INTERPRETATION_ERROR");
}

const wildcard = (party: string) => ({
  eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } } },
  transactionShape: "TRANSACTION_SHAPE_ACS_DELTA",
});

/** The messages of a grpc-js server stream, one at a time. */
function reader(stream: grpc.ClientReadableStream<any>) {
  const queue: any[] = [];
  const waiting: ((m: any) => void)[] = [];
  stream.on("data", (m) => (waiting.length > 0 ? waiting.shift()!(m) : queue.push(m)));
  stream.on("error", () => undefined); // the cancel at the end
  return { next: () => (queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise<any>((r) => waiting.push(r))) };
}

describe("CompletionStream over grpc-js", () => {
  it("sends a checkpoint when the ledger moved on without completions for the subscriber, none after its own", async () => {
    const begin = await ledgerEnd();
    const client = new v2.CommandCompletionService(`127.0.0.1:${s.server.grpcPort}`, grpc.credentials.createInsecure());
    const md = new grpc.Metadata();
    md.set("authorization", `Bearer ${alice.token}`);
    const stream = client.completionStream({ userId: alice.user, parties: [alice.party], beginExclusive: String(begin) }, md);
    const messages = reader(stream);
    try {
      // Opened at the ledger end: nothing to say until the end moves.
      await create(bob);
      const first = await messages.next();
      expect(first.completionResponse).toBe("offsetCheckpoint");
      expect(first.offsetCheckpoint.offset).toBe(String(begin + 1));
      expect(first.offsetCheckpoint.synchronizerTimes).toHaveLength(1);
      const time = first.offsetCheckpoint.synchronizerTimes[0];

      const own = await create(alice);
      const second = await messages.next();
      expect(second.completionResponse).toBe("completion");
      expect(second.completion.offset).toBe(String(own));
      expect(time.synchronizerId).toBe(second.completion.synchronizerTime.synchronizerId);
      expect(time.recordTime).toEqual(second.completion.synchronizerTime.recordTime);

      // A rejection of someone else's command: again nothing for alice, so a checkpoint at it.
      await reject(bob);
      const third = await messages.next();
      expect(third.completionResponse).toBe("offsetCheckpoint");
      expect(third.offsetCheckpoint.offset).toBe(String(own + 1));
    } finally {
      stream.cancel();
      client.close();
    }
  });
});

describe("GetUpdates over the Connect client", () => {
  const transport = () => createGrpcTransport({ baseUrl: s.grpc });
  const request = (party: string, beginExclusive: bigint, endInclusive?: bigint) => ({
    beginExclusive,
    endInclusive,
    updateFormat: {
      includeTransactions: { eventFormat: { filtersByParty: { [party]: {} } }, transactionShape: TransactionShape.ACS_DELTA },
    },
  });

  it("interleaves checkpoints for invisible transactions and rejections on an open-ended stream", async () => {
    const begin = BigInt(await ledgerEnd());
    const abort = new AbortController();
    const headers = { authorization: `Bearer ${alice.token}` };
    const it = createClient(UpdateService, transport()).getUpdates(request(alice.party, begin), { headers, signal: abort.signal })[Symbol.asyncIterator]();
    const next = async () => ((await it.next()).value as GetUpdatesResponse | undefined)?.update;
    try {
      await create(bob);
      const first = await next();
      expect(first?.case).toBe("offsetCheckpoint");
      expect(first?.case === "offsetCheckpoint" && first.value.offset).toBe(begin + 1n);
      const times = first?.case === "offsetCheckpoint" ? first.value.synchronizerTimes : undefined;

      const own = BigInt(await create(alice));
      const second = await next();
      expect(second?.case).toBe("transaction");
      expect(second?.case === "transaction" && second.value.offset).toBe(own);
      // Static time: the record time at the checkpoint is the one every transaction has.
      if (second?.case !== "transaction") return;
      expect(times?.map((t) => [t.synchronizerId, t.recordTime])).toEqual([[second.value.synchronizerId, second.value.recordTime]]);

      await reject(alice);
      const third = await next();
      expect(third?.case).toBe("offsetCheckpoint");
      expect(third?.case === "offsetCheckpoint" && third.value.offset).toBe(own + 1n);
    } finally {
      abort.abort();
    }
  });

  it("sends no checkpoints on a stream with end_inclusive", async () => {
    const begin = BigInt(await ledgerEnd());
    await create(bob);
    const own = BigInt(await create(alice));
    await reject(bob);
    const headers = { authorization: `Bearer ${alice.token}` };
    const seen: string[] = [];
    for await (const r of createClient(UpdateService, transport()).getUpdates(request(alice.party, begin, own + 1n), { headers })) {
      seen.push(`${r.update.case}@${r.update.case === "transaction" ? r.update.value.offset : "?"}`);
    }
    expect(seen).toEqual([`transaction@${own}`]);
  });
});

describe("JSON arrays", () => {
  it("POST /v2/updates and /v2/commands/completions end with {OffsetCheckpoint:{value}} when the end is past the last item", async () => {
    const begin = await ledgerEnd();
    await create(bob);
    const own = await create(alice);
    await reject(bob);
    const end = own + 1;

    const updates = await s.json(
      "POST",
      "/v2/updates?stream_idle_timeout_ms=300",
      { beginExclusive: begin, updateFormat: { includeTransactions: wildcard(alice.party) } },
      alice.token,
    );
    expect(updates.status).toBe(200);
    expect(updates.body).toHaveLength(2);
    expect(updates.body[0].update.Transaction.value.offset).toBe(own);
    const recordTime = updates.body[0].update.Transaction.value.recordTime;
    expect(updates.body[1]).toEqual({
      update: { OffsetCheckpoint: { value: { offset: end, synchronizerTimes: [{ synchronizerId: expect.any(String), recordTime }] } } },
    });

    const completions = await s.json(
      "POST",
      "/v2/commands/completions?stream_idle_timeout_ms=300",
      { userId: alice.user, parties: [alice.party], beginExclusive: begin },
      alice.token,
    );
    expect(completions.status).toBe(200);
    expect(completions.body).toHaveLength(2);
    expect(completions.body[0].completionResponse.Completion.value.offset).toBe(own);
    const sync = completions.body[0].completionResponse.Completion.value.synchronizerTime;
    expect(completions.body[1]).toEqual({ completionResponse: { OffsetCheckpoint: { value: { offset: end, synchronizerTimes: [sync] } } } });

    // Bounded: no checkpoint. Begun at the ledger end: nothing at all.
    const bounded = await s.json(
      "POST",
      "/v2/updates?stream_idle_timeout_ms=300",
      { beginExclusive: begin, endInclusive: end, updateFormat: { includeTransactions: wildcard(alice.party) } },
      alice.token,
    );
    expect(bounded.body.map((u: any) => Object.keys(u.update)[0])).toEqual(["Transaction"]);
    const atEnd = await s.json(
      "POST",
      "/v2/commands/completions?stream_idle_timeout_ms=200",
      { userId: alice.user, parties: [alice.party], beginExclusive: await ledgerEnd() },
      alice.token,
    );
    expect(atEnd.body).toEqual([]);
  });

  it("pointwise lookups answer the update itself, never a checkpoint", async () => {
    const own = await create(alice);
    const byOffset = await s.json("POST", "/v2/updates/update-by-offset", { offset: own, updateFormat: { includeTransactions: wildcard(alice.party) } }, alice.token);
    expect(Object.keys(byOffset.body.update)).toEqual(["Transaction"]);
    await reject(alice);
    const rejected = await s.json("POST", "/v2/updates/update-by-offset", { offset: own + 1, updateFormat: { includeTransactions: wildcard(alice.party) } }, alice.token);
    expect(rejected.status).toBe(404);
    expect(rejected.body.code).toBe("UPDATE_NOT_FOUND");
  });
});
