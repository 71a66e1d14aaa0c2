/**
 * The expiry of transfer offers takes the due offers from the offer index and never reads the
 * offers themselves (a hostile review: 50,000 offers expiring in a year cost 0.4 s of every
 * second, and 30,000 expiring together were read again for every batch). When many expire
 * together they are archived a bounded number at a time, over several runs of the step.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LedgerClient } from "../../../src/ledger/ledger-client.js";
import { TransferOffer } from "../../../src/templates/splice/wallet/transfer-offer.js";
import { IN_FLIGHT, PER_RUN, actOnAll } from "../../../src/wallet/automation/act-on-each.js";
import { startCc, type CcFixture } from "../../support/cc-fixture.js";

const SECOND = 1_000_000n;
const HOUR = 3_600n * SECOND;
let fx: CcFixture;
let alice: string;
let bob: string;
let aliceToken: string;

beforeAll(async () => {
  fx = await startCc();
  const operator = await fx.t.token("administrator");
  for (const name of ["exp-alice", "exp-bob"]) expect((await fx.t.json("POST", "/v0/admin/users", { name }, operator)).status).toBe(200);
  aliceToken = await fx.t.token("exp-alice");
  alice = (await fx.t.json("GET", "/v0/wallet/user-status", undefined, aliceToken)).body.party_id;
  bob = (await fx.t.json("GET", "/v0/wallet/user-status", undefined, await fx.t.token("exp-bob"))).body.party_id;
}, 60_000);
afterAll(() => fx?.stop());

const offers = async () => (await fx.client.active(TransferOffer, [alice])).filter((o) => o.payload.sender === alice);

describe("expiring transfer offers", () => {
  it("reads no offer on the ticks before the first expiry, and archives 300 expiring together over several runs", async () => {
    const expiresAt = Number((fx.clock.now() + HOUR) / 1000n) * 1000;
    await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        const body = { receiver_party_id: bob, amount: "1", description: "", expires_at: expiresAt, tracking_id: `exp-${i}` };
        const r = await fx.t.json("POST", "/v0/wallet/transfer-offers", body, aliceToken);
        expect(r.status, r.text).toBe(200);
      }),
    );
    await fx.advance(SECOND); // the first tick after the offers were made reads them once
    const reads = vi.spyOn(LedgerClient.prototype, "active");
    try {
      for (let i = 0; i < 5; i++) await fx.advance(SECOND);
      expect(reads.mock.calls.filter(([template]) => template === TransferOffer)).toEqual([]);
    } finally {
      reads.mockRestore();
    }
    expect(await offers()).toHaveLength(300);
    const expiring = vi.spyOn(LedgerClient.prototype, "active");
    try {
      await fx.advance(HOUR);
      for (let i = 0; i < 100 && (await offers()).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await offers()).toEqual([]);
      // Only this test's own reads (as alice) touched the offers: the step read none.
      expect(expiring.mock.calls.filter(([template, parties]) => template === TransferOffer && !parties?.includes(alice))).toEqual([]);
    } finally {
      expiring.mockRestore();
    }
  }, 60_000);
});

describe("actOnAll", () => {
  it("acts on at most IN_FLIGHT items at once, and stops after PER_RUN once one acted", async () => {
    let inFlight = 0;
    let most = 0;
    const acted: number[] = [];
    const act = async (i: number) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      acted.push(i);
      return i % 2 === 0;
    };
    const items = Array.from({ length: 3 * PER_RUN }, (_, i) => i);
    expect(await actOnAll(items, act)).toBe(true);
    expect(most).toBe(IN_FLIGHT);
    expect(acted).toHaveLength(PER_RUN);
    // Nothing acted in the first runs' worth: it goes on until one does (no item is starved).
    acted.length = 0;
    expect(await actOnAll(items, async (i) => (acted.push(i), i >= PER_RUN + 3))).toBe(true);
    expect(acted).toHaveLength(2 * PER_RUN);
    expect(await actOnAll(items, async () => false)).toBe(false);
  });
});
