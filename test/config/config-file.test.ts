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

describe("config file", () => {
  it("reads known keys with defaults for the rest", () => {
    const config = withFile({ ledger: { maxStreams: 7 }, automation: { mergeThreshold: 12 } })();
    expect([config.maxStreams, config.maxStreamsPerUser, config.automation.mergeThreshold, config.automation.collectRewards]).toEqual([7, 200, 12, true]);
  });

  it.each([
    [{ ledgr: {} }, /^invalid config file .*:\n {2}: Unrecognized key: "ledgr"$/],
    [{ automation: { colectRewards: false } }, /\n {2}automation: Unrecognized key: "colectRewards"$/],
    [{ network: { amuletPrice: "0.005", tickSeconds: 60 } }, /\n {2}network: Unrecognized key: "tickSeconds"$/],
    [{ ledger: { maxStreams: 0 } }, /\n {2}ledger\.maxStreams: /],
  ])("refuses %j, naming the key", (content, message) => {
    const load = withFile(content);
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
  });
});
