/**
 * Idle completion and update streams cost nothing per commit: while another party's commands
 * commit, streams that nothing concerns read nothing from the store; they wake on the hub's tick
 * and say how far the ledger moved with one offset checkpoint each, and a stream whose party acts
 * (or witnesses a transaction) gets its completion (or transaction).
 */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIou, startTestServer, type TestServer } from "../../../support/test-server.js";

const def = protoLoader.loadSync(["com/daml/ledger/api/v2/command_completion_service.proto", "com/daml/ledger/api/v2/update_service.proto"], { includeDirs: ["proto"], longs: String, enums: String, defaults: true, oneofs: true });
const v2 = (grpc.loadPackageDefinition(def) as any).com.daml.ledger.api.v2;

let s: TestServer;
beforeAll(async () => {
  const config = join(mkdtempSync(join(tmpdir(), "ccwallet-idle-")), "config.json");
  writeFileSync(config, JSON.stringify({ ledger: { offsetCheckpointIntervalMs: 300 } }));
  s = await startTestServer({ CCWALLET_CONFIG: config });
});
afterAll(() => s?.stop());

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
}

describe("idle completion streams", () => {
  it("read nothing per commit, checkpoint on the tick, and wake for their own completions", async () => {
    const idle = await s.partyUser("idle");
    const busy = await s.partyUser("busy");
    const client = new v2.CommandCompletionService(`127.0.0.1:${s.server.grpcPort}`, grpc.credentials.createInsecure());
    const md = new grpc.Metadata();
    md.set("authorization", `Bearer ${idle.token}`);
    const begin = String((await s.json("GET", "/v2/state/ledger-end")).body.offset);
    const received: any[][] = [];
    const streams = Array.from({ length: 50 }, (_, i) => {
      received.push([]);
      const st = client.completionStream({ parties: [idle.party], beginExclusive: begin }, md);
      st.on("data", (m: any) => received[i].push(m));
      st.on("error", () => undefined);
      return st;
    });
    await until(() => s.server.api.completions.watching === 50);

    const store = s.server.store;
    const completions = store.completions.bind(store);
    let reads = 0;
    store.completions = (...args) => (reads++, completions(...args));
    try {
      const started = Date.now();
      for (let i = 0; i < 20; i++) expect((await s.json("POST", "/v2/commands/submit-and-wait", createIou(busy.party).commands, busy.token)).status).toBe(200);
      expect(reads).toBe(0);
      // At most one checkpoint per tick (300 ms) while the commits ran, and the last one after them.
      const ticks = Math.ceil((Date.now() - started) / 300) + 2;
      // On the tick (a tick or two may fall amid the commits): checkpoints only, up to the end, still without a store read.
      const end = String((await s.json("GET", "/v2/state/ledger-end")).body.offset);
      await until(() => received.every((r) => r.at(-1)?.offsetCheckpoint?.offset === end));
      expect(reads).toBe(0);
      for (const r of received) {
        expect(r.every((m) => m.completionResponse === "offsetCheckpoint")).toBe(true);
        expect(r.length).toBeLessThanOrEqual(ticks);
      }

      // Their own party acts: every stream reads once and gets the completion.
      const own = await s.json("POST", "/v2/commands/submit-and-wait", createIou(idle.party).commands, idle.token);
      await until(() => received.every((r) => r.some((m) => m.completionResponse === "completion")));
      for (const r of received) expect(r.find((m) => m.completionResponse === "completion").completion.offset).toBe(String(own.body.completionOffset));
      expect(reads).toBeGreaterThanOrEqual(50);
    } finally {
      store.completions = completions;
      for (const st of streams) st.cancel();
      client.close();
    }
  });
});

describe("idle update streams", () => {
  it("read nothing per commit, checkpoint on the tick, and wake for transactions their party witnesses", async () => {
    const idle = await s.partyUser("idle-u");
    const busy = await s.partyUser("busy-u");
    const client = new v2.UpdateService(`127.0.0.1:${s.server.grpcPort}`, grpc.credentials.createInsecure());
    const md = new grpc.Metadata();
    md.set("authorization", `Bearer ${idle.token}`);
    const begin = String((await s.json("GET", "/v2/state/ledger-end")).body.offset);
    const updateFormat = { includeTransactions: { eventFormat: { filtersByParty: { [idle.party]: {} } }, transactionShape: "TRANSACTION_SHAPE_ACS_DELTA" } };
    const received: any[][] = [];
    const streams = Array.from({ length: 50 }, (_, i) => {
      received.push([]);
      const st = client.getUpdates({ beginExclusive: begin, updateFormat }, md);
      st.on("data", (m: any) => received[i].push(m));
      st.on("error", () => undefined);
      return st;
    });
    await until(() => s.server.api.updates.watching === 50);

    const store = s.server.store;
    const transactions = store.transactions.bind(store);
    let reads = 0;
    store.transactions = (...args) => (reads++, transactions(...args));
    try {
      for (let i = 0; i < 20; i++) expect((await s.json("POST", "/v2/commands/submit-and-wait", createIou(busy.party).commands, busy.token)).status).toBe(200);
      expect(reads).toBe(0);
      const end = String((await s.json("GET", "/v2/state/ledger-end")).body.offset);
      await until(() => received.every((r) => r.at(-1)?.offsetCheckpoint?.offset === end));
      expect(reads).toBe(0);
      for (const r of received) expect(r.every((m) => m.update === "offsetCheckpoint")).toBe(true);

      const own = await s.json("POST", "/v2/commands/submit-and-wait", createIou(idle.party).commands, idle.token);
      await until(() => received.every((r) => r.some((m) => m.update === "transaction")));
      for (const r of received) expect(r.find((m) => m.update === "transaction").transaction.updateId).toBe(own.body.updateId);
      expect(reads).toBeGreaterThanOrEqual(50);
    } finally {
      store.transactions = transactions;
      for (const st of streams) st.cancel();
      client.close();
    }
  });
});
