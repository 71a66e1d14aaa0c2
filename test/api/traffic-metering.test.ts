/**
 * Traffic metering on a real node in static time: every transaction's `paidTrafficCost` is the
 * documented formula on gRPC and JSON; with a small base rate, the participant runs dry, is
 * refused with Canton's SEQUENCER_NOT_ENOUGH_TRAFFIC_CREDIT and nothing is committed, and it
 * recovers when the window refills or after AmuletRules_BuyMemberTraffic.
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CommandService } from "../../gen/com/daml/ledger/api/v2/command_service_pb.js";
import { TransactionShape } from "../../gen/com/daml/ledger/api/v2/transaction_filter_pb.js";
import { GrpcCode, LedgerError } from "../../src/ledger/errors.js";
import { trafficCostOf } from "../../src/network/traffic/traffic-cost.js";
import { TRAFFIC_STATE_SETTING } from "../../src/network/traffic/traffic-meter.js";
import { amuletInput, networkConfig, startCc, type CcFixture } from "../support/cc-fixture.js";
import { createIou } from "../support/test-server.js";

const SECOND = 1_000_000n;

/** The cost the formula gives for the committed transaction with this update id. */
async function formulaCost(fx: CcFixture, updateId: string): Promise<bigint> {
  const tx = await fx.t.server.api.store.transactionById(updateId);
  return trafficCostOf(tx!.nodes);
}

describe("paidTrafficCost (default network: generous base rate)", () => {
  let fx: CcFixture;
  beforeAll(async () => {
    fx = await startCc();
  });
  afterAll(() => fx?.stop());

  it("is 5,000 + the nodes' JSON bytes in the JSON transaction and completion", async () => {
    const alice = await fx.t.partyUser("alice");
    const before = (await fx.t.json("GET", "/v2/state/ledger-end")).body.offset as number;
    const r = await fx.t.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(alice.party, "1"), alice.token);
    expect(r.status, r.text).toBe(200);
    const cost = await formulaCost(fx, r.body.transaction.updateId);
    expect(cost).toBeGreaterThan(5_000n);
    expect(r.body.transaction.paidTrafficCost).toBe(Number(cost));
    const c = await fx.t.json("POST", "/v2/commands/completions?stream_idle_timeout_ms=200", { parties: [alice.party], beginExclusive: before }, alice.token);
    expect(c.body[0].completionResponse.Completion.value.paidTrafficCost).toBe(Number(cost));
  });

  it("is the same value on gRPC", async () => {
    const g = await fx.t.partyUser("hal");
    const client = createClient(CommandService, createGrpcTransport({ baseUrl: fx.t.grpc }));
    const res = await client.submitAndWaitForTransaction(
      {
        commands: {
          commandId: "traffic-grpc-1",
          actAs: [g.party],
          commands: [{ command: { case: "create", value: { templateId: { packageId: "#ccwallet-demo", moduleName: "Ccwallet.Demo.Iou", entityName: "Iou" }, createArguments: iou(g.party) } } }],
        },
        transactionFormat: { eventFormat: { filtersByParty: { [g.party]: {} } }, transactionShape: TransactionShape.ACS_DELTA },
      },
      { headers: { authorization: `Bearer ${g.token}` } },
    );
    expect(res.transaction?.paidTrafficCost).toBe(await formulaCost(fx, res.transaction!.updateId));
  });

  it("keeps its limits over transactions that exercise AmuletRules without consuming it (every transfer does)", async () => {
    const alice = await fx.t.partyUser("ivy");
    const limitsRead = () => (fx.t.server.api.traffic as unknown as { limits: Promise<unknown> | undefined }).limits;
    await fx.tap(alice.party, "5");
    const before = limitsRead();
    expect(before).toBeDefined();
    for (let i = 0; i < 3; i++) await fx.tap(alice.party, "1");
    const last = await fx.t.server.api.store.transactions((await fx.t.server.api.store.ledgerEnd()) - 1n, await fx.t.server.api.store.ledgerEnd(), 1);
    expect(last[0]!.nodes.some((n) => n.kind === "exercise" && n.choice === "AmuletRules_DevNet_Tap" && !n.consuming)).toBe(true);
    expect(limitsRead()).toBe(before);
  });
});

const iou = (party: string) => ({
  fields: [
    { label: "issuer", value: { sum: { case: "party" as const, value: party } } },
    { label: "owner", value: { sum: { case: "party" as const, value: party } } },
    { label: "currency", value: { sum: { case: "text" as const, value: "CC" } } },
    { label: "amount", value: { sum: { case: "numeric" as const, value: "1" } } },
    { label: "observers", value: { sum: { case: "list" as const, value: { elements: [] } } } },
  ],
});

describe("running out of traffic (base rate 100,000 bytes per 20 minutes)", () => {
  let fx: CcFixture;
  let alice: string;
  let coin: string;
  beforeAll(async () => {
    fx = await startCc(networkConfig({ baseRateBurstAmountBytes: 100_000, baseRateBurstWindowSeconds: 1200 }));
    alice = await fx.party("alice");
    coin = await fx.tap(alice, "5000");
  });
  afterAll(() => fx?.stop());

  const meter = () => fx.t.server.api.traffic!;

  /** Taps until the participant is refused; returns the refusal. */
  async function exhaust(): Promise<LedgerError> {
    for (let i = 0; i < 500; i++) {
      const e = await fx.tap(alice, "1").then(() => undefined, (err: unknown) => err);
      if (e) return e as LedgerError;
    }
    throw new Error("never ran out of traffic");
  }

  it("is refused with Canton's error and nothing is committed", async () => {
    const error = await exhaust();
    expect(error).toBeInstanceOf(LedgerError);
    expect(error.code).toBe("SEQUENCER_NOT_ENOUGH_TRAFFIC_CREDIT");
    expect(error.grpcCode).toBe(GrpcCode.FAILED_PRECONDITION);
    expect(error.message).toMatch(/^AboveTrafficLimit\(member = PAR::ccwallet::1220[0-9a-f]+, trafficCost = \d+, trafficState = TrafficState\(extraTrafficLimit = 0, /);
    const snapshot = await fx.snapshot();
    const end = await fx.t.server.api.store.ledgerEnd();
    const again = await fx.tap(alice, "1").then(() => undefined, (err: unknown) => err as LedgerError);
    expect(again?.code).toBe("SEQUENCER_NOT_ENOUGH_TRAFFIC_CREDIT");
    expect(await fx.snapshot()).toEqual(snapshot);
    // Only the rejection's completion took an offset; no transaction was written at it.
    expect(await fx.t.server.api.store.ledgerEnd()).toBe(end + 1n);
    expect(await fx.t.server.api.store.transactionByOffset(end + 1n)).toBeUndefined();
  });

  it("recovers when the window refills", async () => {
    const status = await meter().status(fx.clock.now());
    expect(status!.baseRemainder).toBeLessThan(20_000n);
    fx.clock.set(fx.clock.now(), fx.clock.now() + 1200n * SECOND);
    expect((await meter().status(fx.clock.now()))!.baseRemainder).toBe(100_000n);
    await expect(fx.tap(alice, "1")).resolves.toMatch(/^00/);
  });

  it("recovers after buying extra traffic, which the scan reports as consumed", async () => {
    await exhaust();
    // Enough refill for the purchase itself to be sequenced (the validator's reserved traffic, in Splice).
    fx.clock.set(fx.clock.now(), fx.clock.now() + 600n * SECOND);
    const open = await fx.openRound();
    const participant = fx.t.server.api.identity.participantId;
    const synchronizerId = fx.t.server.api.identity.synchronizerId;
    await fx.rules([alice], "AmuletRules_BuyMemberTraffic", {
      inputs: [amuletInput(coin)],
      context: { openMiningRound: open.contractId, issuingMiningRounds: [], validatorRights: [], featuredAppRight: null },
      provider: alice,
      memberId: participant,
      synchronizerId,
      migrationId: 0n,
      trafficAmount: 1_000_000n,
    });
    // Far more than the bucket could hold now goes through, paid from the purchase.
    let paid = 0n;
    while (paid < 200_000n) {
      await fx.tap(alice, "1");
      paid += (await fx.t.server.api.store.transactions((await fx.t.server.api.store.ledgerEnd()) - 1n, await fx.t.server.api.store.ledgerEnd(), 1))[0]!.paidTrafficCost!;
    }
    const status = (await meter().status(fx.clock.now()))!;
    expect(status.purchased).toBe(1_000_000n);
    expect(status.extraConsumed).toBeGreaterThan(100_000n);
    const path = `/api/scan/v0/domains/${encodeURIComponent(synchronizerId)}/members/${encodeURIComponent(participant)}/traffic-status`;
    const scan = await fx.t.json("GET", path, undefined, null);
    expect(scan.status, scan.text).toBe(200);
    expect(scan.body.traffic_status).toEqual({ actual: { total_consumed: Number(status.extraConsumed), total_limit: 1_000_000 }, target: { total_purchased: 1_000_000 } });
  });
});

describe("the traffic account across a restart", () => {
  it("is restored from the store, replaying what the saved account had not caught up with", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-traffic-"));
    const env = networkConfig({ baseRateBurstAmountBytes: 1_000_000, baseRateBurstWindowSeconds: 1200 });
    try {
      let fx = await startCc(env, dir);
      const alice = await fx.party("alice");
      await fx.tap(alice, "1");
      await fx.t.server.api.traffic!.save();
      const older = await fx.t.server.api.store.setting(TRAFFIC_STATE_SETTING);
      for (let i = 0; i < 3; i++) await fx.tap(alice, "1");
      const at = fx.clock.now();
      const before = await fx.t.server.api.traffic!.status(at);
      expect(before!.baseRemainder).toBeLessThan(1_000_000n - 4n * 5_000n);
      // As if the last saves were lost in a crash: the account on disk is behind the ledger (saved
      // first, so the clean stop below has nothing newer to write).
      await fx.t.server.api.traffic!.save();
      await fx.t.server.api.store.putSetting(TRAFFIC_STATE_SETTING, older!);
      await fx.stop();
      fx = await startCc(env, dir);
      expect(await fx.t.server.api.traffic!.status(at)).toEqual(before);
      await fx.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is saved when the node stops, up to the ledger end, though saves under load are spaced out", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-traffic-"));
    const env = networkConfig({ baseRateBurstAmountBytes: 1_000_000, baseRateBurstWindowSeconds: 1200 });
    try {
      let fx = await startCc(env, dir);
      const alice = await fx.party("alice");
      for (let i = 0; i < 3; i++) await fx.tap(alice, "1");
      const end = await fx.t.server.api.store.ledgerEnd();
      await fx.stop();
      fx = await startCc(env, dir);
      const saved = JSON.parse((await fx.t.server.api.store.setting(TRAFFIC_STATE_SETTING))!) as { offset: string };
      expect(BigInt(saved.offset)).toBe(end);
      await fx.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
