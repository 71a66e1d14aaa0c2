/**
 * The wallet SDK's `events` namespace against a real node: its `WebSocketClient` opens
 * `ws://…/v2/commands/completions` and `ws://…/v2/updates` with the `jwt.token.<JWT>` and
 * `daml.ws.auth` subprotocols and sends one request frame (Node 20's WebSocket needs
 * `--experimental-websocket`, which the sdk project's worker has).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SDK } from "@canton-network/wallet-sdk";
import { createIou, IOU, startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let alice: { party: string; user: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("alice");
});
afterAll(async () => s?.stop());

async function eventsSdk() {
  const auth = { method: "static" as const, token: alice.token };
  const base = await SDK.create({ auth, ledgerClientUrl: s.http, logAdapter: "console" });
  return base.extend({ events: { auth, websocketURL: s.http.replace(/^http/, "ws") } });
}

async function ledgerEnd(): Promise<number> {
  return (await s.json("GET", "/v2/state/ledger-end")).body.offset;
}

/** The first item the iterator yields that matches, then the iterator is closed (the socket with it). */
async function firstMatching<T>(items: AsyncIterableIterator<T>, pred: (item: T) => boolean, ms = 10_000): Promise<T> {
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`nothing matched within ${ms} ms`)), ms));
  const found = (async () => {
    for await (const item of items) if (pred(item)) return item;
    throw new Error("the stream ended without a match");
  })();
  try {
    return await Promise.race([found, timeout]);
  } finally {
    await items.return?.();
  }
}

describe("wallet SDK: events over WebSockets", () => {
  it("events.completions yields the completion of a command submitted after subscribing", async () => {
    const sdk = await eventsSdk();
    const completions = sdk.events.completions({ parties: [alice.party], beginOffset: await ledgerEnd() });
    const commandId = `sdk-events-${process.pid}`;
    const first = firstMatching(completions, (c) => (c.completionResponse as { Completion?: { value: { commandId: string } } })?.Completion?.value.commandId === commandId);
    const submitted = await s.json("POST", "/v2/commands/submit-and-wait", createIou(alice.party, "1", alice.party, commandId).commands, alice.token);
    expect(submitted.status).toBe(200);
    const completion = (await first).completionResponse as { Completion: { value: { updateId: string; offset: number } } };
    expect(completion.Completion.value.updateId).toBe(submitted.body.updateId);
    expect(completion.Completion.value.offset).toBe(submitted.body.completionOffset);
  });

  it("events.updates yields the transaction of a contract created after subscribing", async () => {
    const sdk = await eventsSdk();
    const updates = sdk.events.updates({ partyId: alice.party, templateIds: [IOU], beginOffset: await ledgerEnd() });
    type Tx = { Transaction?: { value: { updateId: string; events: { CreatedEvent?: { contractId: string; createArgument: { amount: string } } }[] } } };
    const first = firstMatching(updates, (u) => (u.update as Tx)?.Transaction !== undefined);
    const created = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(alice.party, "6"), alice.token);
    expect(created.status).toBe(200);
    const tx = ((await first).update as Tx).Transaction!.value;
    expect(tx.updateId).toBe(created.body.transaction.updateId);
    expect(tx.events[0].CreatedEvent?.contractId).toBe(created.body.transaction.events[0].CreatedEvent.contractId);
    expect(tx.events[0].CreatedEvent?.createArgument.amount).toBe("6.0000000000");
  });
});
