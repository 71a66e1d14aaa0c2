/**
 * GetActiveContracts at `active_at_offset` below the ledger end, over real sockets: JSON
 * (`POST /v2/state/active-contracts`), grpc-js with the protos in proto/, and the Connect client.
 * Canton's rules: 0 is the empty set, past the ledger end is OFFSET_AFTER_LEDGER_END.
 */
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StateService } from "../../gen/com/daml/ledger/api/v2/state_service_pb.js";
import { createIou, IOU, startTestServer, type TestServer } from "../support/test-server.js";

type Who = { party: string; user: string; token: string };

let s: TestServer;
let alice: Who;
/** Offsets of the history: A created, B created, A archived, a rejection. */
let o: { a: number; b: number; archiveA: number; rejection: number };
let cids: { a: string; b: string };

async function created(who: Who, amount: string): Promise<{ offset: number; cid: string }> {
  const r = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(who.party, amount), who.token);
  expect(r.status).toBe(200);
  return { offset: r.body.transaction.offset, cid: r.body.transaction.events[0].CreatedEvent.contractId };
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("alice");
  const a = await created(alice, "1");
  const b = await created(alice, "2");
  const archive = await s.json(
    "POST",
    "/v2/commands/submit-and-wait",
    { commands: [{ ExerciseCommand: { templateId: IOU, contractId: a.cid, choice: "Archive", choiceArgument: {} } }], commandId: "archive-a", actAs: [alice.party] },
    alice.token,
  );
  expect(archive.status).toBe(200);
  const rejected = await s.json("POST", "/v2/commands/submit-and-wait", createIou(alice.party, "-1").commands, alice.token);
  expect(rejected.status).toBe(400);
  o = { a: a.offset, b: b.offset, archiveA: archive.body.completionOffset, rejection: archive.body.completionOffset + 1 };
  cids = { a: a.cid, b: b.cid };
  expect((await s.json("GET", "/v2/state/ledger-end")).body.offset).toBe(o.rejection);
});
afterAll(() => s?.stop());

const filter = (party: string) => ({ filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } } });

async function acsJson(activeAtOffset: number) {
  return s.json("POST", "/v2/state/active-contracts", { eventFormat: filter(alice.party), activeAtOffset }, alice.token);
}

describe("POST /v2/state/active-contracts at an offset", () => {
  it("answers the snapshot at each offset, with events as created", async () => {
    const at = async (offset: number) => {
      const r = await acsJson(offset);
      expect(r.status).toBe(200);
      return (r.body as any[]).map((e) => e.contractEntry.JsActiveContract.createdEvent);
    };
    expect(await at(0)).toEqual([]);
    expect((await at(o.a)).map((e) => e.contractId)).toEqual([cids.a]);
    const both = await at(o.b);
    expect(both.map((e) => [e.contractId, e.offset])).toEqual([
      [cids.a, o.a],
      [cids.b, o.b],
    ]);
    expect(both[1].createArgument.amount).toBe("2.0000000000");
    expect((await at(o.archiveA)).map((e) => e.contractId)).toEqual([cids.b]);
    expect((await at(o.rejection)).map((e) => e.contractId)).toEqual([cids.b]);
  });

  it("refuses an offset past the ledger end and a negative one", async () => {
    const far = await acsJson(o.rejection + 1);
    expect(far.status).toBe(400);
    expect(far.body.code).toBe("OFFSET_AFTER_LEDGER_END");
    expect(far.body.cause).toBe(`active_at_offset offset (${o.rejection + 1}) is after ledger end (${o.rejection})`);
    const negative = await acsJson(-1);
    expect(negative.status).toBe(400);
    expect(negative.body.code).toBe("INVALID_FIELD");
  });
});

describe("StateService.GetActiveContracts at an offset over gRPC", () => {
  it("grpc-js: the snapshot before the archive, and OUT_OF_RANGE past the end", async () => {
    const pkg = grpc.loadPackageDefinition(
      protoLoader.loadSync("com/daml/ledger/api/v2/state_service.proto", { includeDirs: ["proto"], longs: String, enums: String, defaults: true, oneofs: true }),
    ) as any;
    const client = new pkg.com.daml.ledger.api.v2.StateService(`127.0.0.1:${s.server.grpcPort}`, grpc.credentials.createInsecure());
    const md = new grpc.Metadata();
    md.set("authorization", `Bearer ${alice.token}`);
    const read = (activeAtOffset: number) =>
      new Promise<any[]>((resolve, reject) => {
        const out: any[] = [];
        const call = client.getActiveContracts({ activeAtOffset: String(activeAtOffset), eventFormat: { filtersByParty: { [alice.party]: {} } } }, md);
        call.on("data", (m: any) => out.push(m));
        call.on("error", reject);
        call.on("end", () => resolve(out));
      });
    try {
      const before = await read(o.b);
      expect(before.map((m) => m.activeContract.createdEvent.contractId)).toEqual([cids.a, cids.b]);
      expect(before.map((m) => m.activeContract.createdEvent.offset)).toEqual([String(o.a), String(o.b)]);
      const err = await read(o.rejection + 5).catch((e: grpc.ServiceError) => e);
      expect((err as grpc.ServiceError).code).toBe(grpc.status.OUT_OF_RANGE);
      expect(decodeURIComponent((err as grpc.ServiceError).details)).toMatch(/^OFFSET_AFTER_LEDGER_END\(12,/);
    } finally {
      client.close();
    }
  });

  it("Connect: the snapshot after the archive; 0 is empty", async () => {
    const client = createClient(StateService, createGrpcTransport({ baseUrl: s.grpc }));
    const headers = { authorization: `Bearer ${alice.token}` };
    const read = async (activeAtOffset: bigint) => {
      const ids: string[] = [];
      for await (const r of client.getActiveContracts({ activeAtOffset, eventFormat: { filtersByParty: { [alice.party]: {} } } }, { headers })) {
        if (r.contractEntry.case === "activeContract") ids.push(r.contractEntry.value.createdEvent?.contractId ?? "");
      }
      return ids;
    };
    expect(await read(BigInt(o.archiveA))).toEqual([cids.b]);
    expect(await read(BigInt(o.a))).toEqual([cids.a]);
    expect(await read(0n)).toEqual([]);
    const err = await read(BigInt(o.rejection + 1)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.OutOfRange);
  });
});
