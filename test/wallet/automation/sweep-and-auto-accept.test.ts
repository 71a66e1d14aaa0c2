/**
 * The configured sweeps (`automation.walletSweep`) and auto-accepts (`automation.autoAcceptTransfers`)
 * on a real node in static time. Party ids are configured before the parties exist, as an
 * operator does: a first start learns the node's namespace, the second starts with the config,
 * and the users are then onboarded with exactly those party ids. At 0.005 USD/CC, with
 * maxBalanceUSD 4 and minBalanceUSD 1, a tap of 1000 CC (5 USD) is swept down to 200 CC (1 USD).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Numeric } from "../../../src/ledger/numeric.js";
import { readNetwork } from "../../../src/network/network-state.js";
import { AmuletTransferInstruction } from "../../../src/templates/splice/amulet-transfer-instruction.js";
import { TransferOffer } from "../../../src/templates/splice/wallet/transfer-offer.js";
import type { AutomationLog } from "../../../src/wallet/automation/automation-log.js";
import { sweepWallets } from "../../../src/wallet/automation/wallet-sweep.js";
import { loadConfig } from "../../../src/config/index.js";
import { configFile, startCc, type CcFixture } from "../../support/cc-fixture.js";
import { startTestServer } from "../../support/test-server.js";

const HOUR = 3_600_000_000n;
const SWEEP = { maxBalanceUSD: "4", minBalanceUSD: "1" };
const HINTS = ["sa1", "ra1", "sa2", "ra2", "sa3", "ra3", "sa4", "ra4", "sx", "sy", "rx"] as const;
type Hint = (typeof HINTS)[number];

let fx: CcFixture;
let dir: string;
let configEnv: Record<string, string>;
const party = {} as Record<Hint, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ccwallet-sweep-"));
  const first = await startTestServer({ CCWALLET_TIME: "static" }, dir);
  const namespace = first.server.api.namespace;
  await first.stop();
  for (const h of HINTS) party[h] = `${h}-wallet::${namespace}`;
  configEnv = configFile({
    automation: {
      walletSweep: {
        [party.sa1]: { ...SWEEP, receiver: party.ra1 },
        [party.sa2]: { ...SWEEP, receiver: party.ra2 },
        [party.sa3]: { ...SWEEP, receiver: party.ra3, useTransferPreapproval: true },
        [party.sa4]: { ...SWEEP, receiver: party.ra4, useTransferPreapproval: true },
      },
      autoAcceptTransfers: { [party.ra2]: { fromParties: [party.sa2] }, [party.rx]: { fromParties: [party.sx] } },
    },
  });
  fx = await startCc(configEnv, dir);
  const operator = await fx.t.token("administrator");
  for (const h of HINTS) {
    const r = await fx.t.json("POST", "/v0/admin/users", { name: h, party_id: party[h], createPartyIfMissing: true }, operator);
    expect(r.status, r.text).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  await fx?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the automation (DSO and wallet triggers) until it has nothing left to do. */
const settle = () => fx.t.server.network.automation.runNow();
const as = async (h: Hint) => fx.t.token(h);
const balance = async (h: Hint) => (await fx.balance(party[h])).toString();
const offersFrom = async (h: Hint) => (await fx.client.active(TransferOffer, [party[h]])).filter((o) => o.payload.sender === party[h]);

describe("wallet sweep (automation.walletSweep)", () => {
  it("as a transfer offer: 800 CC offered to the receiver, once; accepted by the receiver, it leaves the sender at minBalanceUSD", async () => {
    await fx.tap(party.sa1, "1000");
    await settle();
    const [offer, ...more] = await offersFrom("sa1");
    expect(more).toEqual([]);
    expect(offer.payload).toMatchObject({ receiver: party.ra1, amount: { amount: Numeric.parse("800"), unit: "AmuletUnit" }, description: `Sweeping wallet funds to receiver ${party.ra1}.` });
    expect(offer.payload.expiresAt).toBe(fx.clock.now() + 600_000_000n);
    expect(offer.payload.trackingId).toMatch(/^[0-9a-f-]{36}$/);

    // While the offer is open it counts as swept: 5.5 USD minus the 4 USD offered is below the maximum.
    await fx.tap(party.sa1, "100");
    await settle();
    expect((await offersFrom("sa1")).map((o) => o.contractId)).toEqual([offer.contractId]);

    const accepted = await fx.t.json("POST", `/v0/wallet/transfer-offers/${offer.contractId}/accept`, undefined, await as("ra1"));
    expect(accepted.status, accepted.text).toBe(200);
    await settle();
    expect([await balance("sa1"), await balance("ra1")]).toEqual(["300.0000000000", "800.0000000000"]);
    expect(await offersFrom("sa1")).toEqual([]);
  });

  it("as a transfer offer the receiver auto-accepts: the sender ends at minBalanceUSD with nobody acting", async () => {
    await fx.tap(party.sa2, "1000");
    await settle();
    expect([await balance("sa2"), await balance("ra2")]).toEqual(["200.0000000000", "800.0000000000"]);
    expect(await offersFrom("sa2")).toEqual([]);
  });

  it("through the receiver's preapproval: one step, the sender ends at minBalanceUSD", async () => {
    await fx.tap(fx.validator, "1000"); // the operator pays the preapproval's fee
    const pre = await fx.t.json("POST", "/v0/wallet/transfer-preapproval", undefined, await as("ra3"));
    expect(pre.status, pre.text).toBe(200);
    await fx.tap(party.sa3, "1000");
    await settle();
    expect([await balance("sa3"), await balance("ra3")]).toEqual(["200.0000000000", "800.0000000000"]);
    expect(await offersFrom("sa3")).toEqual([]);
  });

  it("through a preapproval the receiver does not have: nothing is sent, and each run logs the error", async () => {
    await fx.tap(party.sa4, "1000");
    await settle();
    expect([await balance("sa4"), await balance("ra4")]).toEqual(["1000.0000000000", "0.0000000000"]);
    expect(await offersFrom("sa4")).toEqual([]);

    const errors: string[] = [];
    const log: AutomationLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (fields, message) => errors.push(`${String(fields.trigger)}: ${message}`) };
    const wallet = fx.t.server.wallet;
    const ctx = { deps: wallet, parties: () => wallet.users.walletParties(), sweeps: loadConfig(configEnv).automation.walletSweep, log };
    const state = await readNetwork(fx.client, fx.dso);
    for (let run = 0; run < 2; run++) expect(await sweepWallets(ctx, state, fx.clock.now(), "all")).toBe(false);
    expect(errors).toEqual(Array(2).fill(`wallet sweep: cannot sweep: receiver ${party.ra4} has no TransferPreapproval; have the receiver create one, or set useTransferPreapproval to false`));
    expect(await balance("sa4")).toBe("1000.0000000000");
  });
});

describe("auto-accept (automation.autoAcceptTransfers)", () => {
  const offer = (receiver: Hint, trackingId: string) => ({
    receiver_party_id: party[receiver],
    amount: "10",
    description: "auto-accept test",
    expires_at: Number(fx.clock.now() + HOUR),
    tracking_id: trackingId,
  });

  it("accepts a listed sender's transfer offer with no action by the receiver, and leaves an unlisted sender's alone", async () => {
    await fx.tap(party.sx, "100");
    await fx.tap(party.sy, "100");
    const listed = await fx.t.json("POST", "/v0/wallet/transfer-offers", offer("rx", "from-sx"), await as("sx"));
    const unlisted = await fx.t.json("POST", "/v0/wallet/transfer-offers", offer("rx", "from-sy"), await as("sy"));
    expect([listed.status, unlisted.status]).toEqual([200, 200]);
    await settle();
    expect(await balance("rx")).toBe("10.0000000000");
    expect(await balance("sx")).toBe("90.0000000000");
    expect(await offersFrom("sx")).toEqual([]);
    expect((await offersFrom("sy")).map((o) => o.contractId)).toEqual([unlisted.body.offer_contract_id]);
    expect(await balance("sy")).toBe("100.0000000000");
  });

  it("accepts a listed sender's token-standard transfer instruction", async () => {
    const sent = await fx.t.json("POST", "/v0/wallet/token-standard/transfers", offer("rx", "ts-from-sx"), await as("sx"));
    expect(sent.status, sent.text).toBe(200);
    await settle();
    const open = (await fx.client.active(AmuletTransferInstruction, [party.rx])).filter((i) => i.payload.transfer.sender === party.sx);
    expect(open).toEqual([]);
    expect(await balance("rx")).toBe("20.0000000000");
  });
});
