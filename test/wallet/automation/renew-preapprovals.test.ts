/**
 * The operator's preapprovals are renewed once less than 30 days are left, to the old expiry plus
 * 90 days (Splice's RenewTransferPreapprovalTrigger), paid from the operator's wallet; one with
 * more time left is not touched.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TransferPreapproval } from "../../../src/templates/splice/transfer-preapproval.js";
import { amuletInput, configFile, startCc, type CcFixture } from "../../support/cc-fixture.js";

const DAY = 86_400_000_000n;
let fx: CcFixture;

beforeAll(async () => {
  fx = await startCc();
});
afterAll(() => fx?.stop());

describe("preapproval renewal", () => {
  it("renews a preapproval with under 30 days left to its old expiry plus 90 days; leaves one with more", async () => {
    const funds = await fx.tap(fx.validator, "10000");
    const [soon, later] = [await fx.party("soon"), await fx.party("later")];
    const now = fx.clock.now();
    const first = await fx.createPreapproval(fx.validator, soon, [amuletInput(funds)], now + 29n * DAY);
    const change = (await fx.holdings(fx.validator)).find((h) => h.contractId !== funds)!;
    await fx.createPreapproval(fx.validator, later, [amuletInput(change.contractId)], now + 31n * DAY);
    await fx.advance(1n);

    const active = await fx.client.active(TransferPreapproval, [fx.validator]);
    const of = (receiver: string) => active.filter((p) => p.payload.receiver === receiver);
    expect(of(soon).map((p) => p.payload.expiresAt)).toEqual([now + 29n * DAY + 90n * DAY]);
    expect(of(soon)[0].contractId).not.toBe(first.transferPreapprovalCid);
    expect(of(later).map((p) => p.payload.expiresAt)).toEqual([now + 31n * DAY]);
  });
});

describe("preapproval renewal with Splice's transfer-preapproval settings", () => {
  it("uses automation.transferPreapproval: renews within renewalDuration, by preapprovalLifetime", async () => {
    const custom = await startCc(configFile({ automation: { transferPreapproval: { preapprovalLifetime: "60d", renewalDuration: "P10D" } } }));
    try {
      const funds = await custom.tap(custom.validator, "10000");
      const [soon, later] = [await custom.party("soon"), await custom.party("later")];
      const now = custom.clock.now();
      await custom.createPreapproval(custom.validator, soon, [amuletInput(funds)], now + 9n * DAY);
      const change = (await custom.holdings(custom.validator)).find((h) => h.contractId !== funds)!;
      await custom.createPreapproval(custom.validator, later, [amuletInput(change.contractId)], now + 11n * DAY);
      await custom.advance(1n);
      const active = await custom.client.active(TransferPreapproval, [custom.validator]);
      const expiry = (receiver: string) => active.filter((p) => p.payload.receiver === receiver).map((p) => p.payload.expiresAt);
      expect(expiry(soon)).toEqual([now + 9n * DAY + 60n * DAY]);
      expect(expiry(later)).toEqual([now + 11n * DAY]);
    } finally {
      await custom.stop();
    }
  });
});
