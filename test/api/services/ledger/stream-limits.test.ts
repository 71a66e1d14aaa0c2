/**
 * Stream caps: per user and overall, over plain gRPC (grpc-js) and the JSON API. A stream past a
 * cap is refused with Canton's MAXIMUM_NUMBER_OF_STREAMS (ABORTED), the open ones go on, and a
 * closed stream frees its slot.
 */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../support/test-server.js";

const def = protoLoader.loadSync(["com/daml/ledger/api/v2/command_completion_service.proto"], { includeDirs: ["proto"], longs: String, enums: String, defaults: true, oneofs: true });
const v2 = (grpc.loadPackageDefinition(def) as any).com.daml.ledger.api.v2;

let s: TestServer;
let client: any;
const open: grpc.ClientReadableStream<unknown>[] = [];

beforeAll(async () => {
  const config = join(mkdtempSync(join(tmpdir(), "ccwallet-limits-")), "config.json");
  writeFileSync(config, JSON.stringify({ ledger: { maxStreams: 5, maxStreamsPerUser: 3 } }));
  s = await startTestServer({ CCWALLET_CONFIG: config });
  client = new v2.CommandCompletionService(`127.0.0.1:${s.server.grpcPort}`, grpc.credentials.createInsecure());
});
afterAll(async () => {
  for (const st of open) st.cancel();
  client?.close();
  await s?.stop();
});

const meta = (token: string) => {
  const m = new grpc.Metadata();
  m.set("authorization", `Bearer ${token}`);
  return m;
};

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond(), what).toBe(true);
}

/** Opens a completion stream and resolves once the server counts it, or with the error that refused it. */
async function openStream(who: { party: string; token: string }): Promise<grpc.ServiceError | undefined> {
  const before = s.server.api.streams.open;
  const st: grpc.ClientReadableStream<unknown> = client.completionStream({ parties: [who.party] }, meta(who.token));
  st.on("data", () => undefined);
  const refused = new Promise<grpc.ServiceError>((resolve) => st.on("error", (e: grpc.ServiceError) => resolve(e)));
  const counted = (async () => {
    await until(() => s.server.api.streams.open > before, "the stream was counted");
    return undefined;
  })();
  const outcome = await Promise.race([refused, counted.catch(() => undefined)]);
  if (outcome === undefined) open.push(st);
  return outcome;
}

describe("stream limits", () => {
  it("refuses a user's stream past its cap and anyone's past the overall cap, then frees slots on close", async () => {
    const alice = await s.partyUser("alice");
    const bob = await s.partyUser("bob");
    for (let i = 0; i < 3; i++) expect(await openStream(alice)).toBeUndefined();
    const mine = await openStream(alice);
    expect(mine?.code).toBe(grpc.status.ABORTED);
    expect(mine?.details).toMatch(/^MAXIMUM_NUMBER_OF_STREAMS\(2,[0-9a-f]*\): The number of streams in use \(3\) has reached or exceeded the limit \(3\)/);
    expect(s.server.api.streams.open).toBe(3);

    for (let i = 0; i < 2; i++) expect(await openStream(bob)).toBeUndefined();
    const overall = await openStream(bob);
    expect(overall?.code).toBe(grpc.status.ABORTED);
    expect(overall?.details).toContain("The number of streams in use (5) has reached or exceeded the limit (5)");

    // The JSON API counts against the same caps and answers in Canton's JSON error shape.
    const json = await s.json("POST", "/v2/commands/completions?stream_idle_timeout_ms=50", { parties: [bob.party] }, bob.token);
    expect(json.status).toBe(409);
    expect(json.body.code).toBe("MAXIMUM_NUMBER_OF_STREAMS");

    open.shift()!.cancel();
    await until(() => s.server.api.streams.open === 4, "a cancelled stream frees its slot");
    expect(await openStream(bob)).toBeUndefined();
    expect(s.server.api.streams.open).toBe(5);
  });
});
