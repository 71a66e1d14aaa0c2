/**
 * The network's genesis: `AmuletRules` and the first three mining rounds commit in one
 * transaction, so no stop of the node can leave rules that no round ever opens under; and data
 * with rules but no round (what an earlier version left when killed between its genesis's two
 * commands, found by a helper's kill -9 at every offset of a first start) gets its first rounds on
 * the next start, after which CC moves again.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { qualifiedId } from "../../src/ledger/template.js";
import { AmuletRules } from "../../src/templates/splice/amulet-rules.js";
import { ClosedMiningRound, IssuingMiningRound, OpenMiningRound, SummarizingMiningRound } from "../../src/templates/splice/round.js";
import { choiceOf } from "../support/choice-of.js";
import { startCc } from "../support/cc-fixture.js";

describe("network genesis", () => {
  it("commits AmuletRules and the first three open rounds in one transaction", async () => {
    const fx = await startCc();
    try {
      const transactions = await fx.t.server.store.transactions(0n, await fx.t.server.store.ledgerEnd(), 1000);
      const genesis = transactions.filter((tx) => tx.nodes.some((n) => n.kind === "create" && n.templateId === qualifiedId(AmuletRules.id)));
      expect(genesis).toHaveLength(1);
      const created = genesis[0].nodes.flatMap((n) => (n.kind === "create" ? [n.templateId] : []));
      expect(created.filter((id) => id === qualifiedId(OpenMiningRound.id))).toHaveLength(3);
    } finally {
      await fx.stop();
    }
  });

  it("gives rules without any round their first rounds on the next start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-genesis-"));
    const config = { CCWALLET_LOG_LEVEL: "silent" };
    const broken = await startCc(config, dir);
    const { dso } = broken;
    // The state a stop between the rules' commit and the rounds' left: every round gone.
    for (const template of [OpenMiningRound, SummarizingMiningRound, IssuingMiningRound, ClosedMiningRound]) {
      for (const round of await broken.client.active(template as typeof OpenMiningRound, [dso])) {
        await broken.client.exercise([dso], template as typeof OpenMiningRound, round.record.contractId, choiceOf(template as typeof OpenMiningRound, "Archive"), {});
      }
    }
    expect(await broken.client.active(OpenMiningRound, [dso])).toHaveLength(0);
    await broken.stop();

    const restarted = await startCc(config, dir);
    try {
      expect(restarted.dso).toBe(dso);
      const open = await restarted.client.active(OpenMiningRound, [dso]);
      expect(open.map((r) => r.payload.round.number).sort()).toEqual([0n, 1n, 2n]);
      const alice = await restarted.party("alice");
      await restarted.tap(alice, "10");
      expect((await restarted.holdings(alice)).map((h) => h.payload.amount.initialAmount.toString())).toEqual(["10.0000000000"]);
    } finally {
      await restarted.stop();
    }
  });
});
