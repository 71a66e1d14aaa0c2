/** The config file is checked whole at start: a key the node does not know is an error that names it. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/index.js";

function withFile(content: unknown) {
  const file = join(mkdtempSync(join(tmpdir(), "ccwallet-config-")), "config.json");
  writeFileSync(file, JSON.stringify(content));
  return () => loadConfig({ CCWALLET_CONFIG: file });
}

const ALICE = "alice::1220ab";
const BOB = "bob::1220ab";
const SWEEP = { maxBalanceUSD: "10", minBalanceUSD: "1", receiver: BOB };

describe("config file", () => {
  it("reads known keys with defaults for the rest", () => {
    const config = withFile({ ledger: { maxStreams: 7, maxStreamPageBytes: 8 * 1024 * 1024 }, automation: { mergeThreshold: 12 } })();
    expect([config.maxStreams, config.maxStreamsPerUser, config.automation.mergeThreshold, config.automation.collectRewards]).toEqual([7, 200, 12, true]);
    expect([config.maxStreamPageBytes, config.maxStreamPageBytesPerUser]).toEqual([8 * 1024 * 1024, 32 * 1024 * 1024]);
  });

  it("reads walletSweep and autoAcceptTransfers (Splice's Helm keys), defaulting to none", () => {
    expect([withFile({})().automation.walletSweep, withFile({})().automation.autoAcceptTransfers]).toEqual([{}, {}]);
    const { automation } = withFile({ automation: { walletSweep: { [ALICE]: { ...SWEEP, maxBalanceUSD: 10 } }, autoAcceptTransfers: { [BOB]: { fromParties: [ALICE] } } } })();
    const sweep = automation.walletSweep[ALICE];
    expect([sweep.maxBalanceUSD.toString(), sweep.minBalanceUSD.toString(), sweep.receiver, sweep.useTransferPreapproval]).toEqual(["10.0000000000", "1.0000000000", BOB, false]);
    expect(automation.autoAcceptTransfers).toEqual({ [BOB]: { fromParties: [ALICE] } });
  });

  it.each([
    [{ ledgr: {} }, /^invalid config file .*:\n {2}: Unrecognized key: "ledgr"$/],
    [{ automation: { colectRewards: false } }, /\n {2}automation: Unrecognized key: "colectRewards"$/],
    [{ network: { amuletPrice: "0.005", tickSeconds: 60 } }, /\n {2}network: Unrecognized key: "tickSeconds"$/],
    [{ ledger: { maxStreams: 0 } }, /\n {2}ledger\.maxStreams: /],
    // Less than one page would never admit a read.
    [{ ledger: { maxStreamPageBytesPerUser: 1024 } }, /\n {2}ledger\.maxStreamPageBytesPerUser: /],
    [{ automation: { walletSweep: { [ALICE]: { ...SWEEP, useTransferPreaproval: true } } } }, /\n {2}automation\.walletSweep\.alice::1220ab: Unrecognized key: "useTransferPreaproval"$/],
    [{ automation: { walletSweep: { alice: SWEEP } } }, /\n {2}automation\.walletSweep\.alice: the key is not a party id/],
    [{ automation: { walletSweep: { [ALICE]: { ...SWEEP, receiver: "bob" } } } }, /\n {2}automation\.walletSweep\.alice::1220ab\.receiver: "bob" is not a party id/],
    [{ automation: { walletSweep: { [ALICE]: { ...SWEEP, minBalanceUSD: "10" } } } }, /\n {2}automation\.walletSweep\.alice::1220ab\.minBalanceUSD: must be less than maxBalanceUSD$/],
    [{ automation: { walletSweep: { [ALICE]: { ...SWEEP, maxBalanceUSD: "-1" } } } }, /\n {2}automation\.walletSweep\.alice::1220ab\.maxBalanceUSD: must be positive\n/],
    [{ automation: { walletSweep: { [ALICE]: { ...SWEEP, receiver: ALICE } } } }, /\n {2}automation\.walletSweep\.alice::1220ab\.receiver: must differ from the sender$/],
    [{ automation: { autoAcceptTransfers: { "bob:1220ab": { fromParties: [ALICE] } } } }, /\n {2}automation\.autoAcceptTransfers\.bob:1220ab: the key is not a party id/],
    [{ automation: { autoAcceptTransfers: { [BOB]: { fromParties: [ALICE], fromParty: ALICE } } } }, /\n {2}automation\.autoAcceptTransfers\.bob::1220ab: Unrecognized key: "fromParty"$/],
    // Absurd values a hostile review got past the checks (each started a node that then failed or spun).
    [{ automation: { pollMs: 3_000_000_000 } }, /\n {2}automation\.pollMs: /],
    [{ automation: { pollMs: 1 } }, /\n {2}automation\.pollMs: /],
    [{ automation: { topup: { targetThroughput: 1e308 } } }, /\n {2}automation\.topup\.targetThroughput: must be 0, or from 1 to 10000000 bytes per second$/],
    [{ automation: { topup: { targetThroughput: 1e-300 } } }, /\n {2}automation\.topup\.targetThroughput: must be 0, or from 1/],
    [{ automation: { topup: { minTopupInterval: "99999999999999999999d" } } }, /\n {2}automation\.topup\.minTopupInterval: "9+d" is longer than the longest duration taken, 3650d$/],
    [{ automation: { transferPreapproval: { preapprovalLifetime: "100000000d" } } }, /\n {2}automation\.transferPreapproval\.preapprovalLifetime: "100000000d" is longer/],
    [{ network: { issuance: { validatorRewardPercentage: "5" } } }, /\n {2}network\.issuance\.validatorRewardPercentage: must be a fraction from 0 to 1\n/],
    [{ network: { issuance: { validatorRewardPercentage: "0.5", appRewardPercentage: "0.6" } } }, /\n {2}network\.issuance\.appRewardPercentage: validatorRewardPercentage and appRewardPercentage together must not pass 1/],
    [
      { automation: { walletSweep: { [ALICE]: SWEEP, [BOB]: { ...SWEEP, receiver: ALICE } } } },
      /\n {2}automation\.walletSweep\.alice::1220ab\.receiver: sweeps form a cycle: the CC would be swept back to this sender\n {2}automation\.walletSweep\.bob::1220ab\.receiver: sweeps form a cycle/,
    ],
  ])("refuses %j, naming the key", (content, message) => {
    const load = withFile(content);
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
  });
});
