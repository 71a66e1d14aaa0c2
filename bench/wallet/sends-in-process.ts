/**
 * Preapproval sends without HTTP, for finding what a send costs the event loop and its GC: the
 * bench server runs in this process and `loops` closed loops call the wallet's
 * `sendViaPreapproval` directly, so a question about a layer is answered in seconds rather than
 * in the minutes of the HTTP bench (docs/decisions.md, session 21, found two V8 slow paths so).
 *
 *   node --trace-gc-nvp --import tsx bench/wallet/sends-in-process.ts [seconds=8] [loops=32] > gc.log
 *
 * Prints the rate between `MARK start` and `MARK end` lines, which bound the scavenges to read
 * in the trace. Environment:
 * - SENDS_AUTOMATION=1: the wallet automation on (by default every wallet trigger is off);
 * - SENDS_STAGE=interpret: the ledger only interprets each send (no commit, no feed), or
 *   SENDS_STAGE=wallet: the wallet's reads alone (the ledger is not called);
 * - SENDS_PROMOTED=file: a sampling heap profile of only what survives young-generation GCs
 *   (the allocation sites of promoted objects), written to that file.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Ledger } from "../../src/ledger/engine.js";
import { newUpdateIds } from "../../src/ledger/ids.js";
import { Numeric } from "../../src/ledger/numeric.js";
import { sendViaPreapproval } from "../../src/wallet/index.js";
import { startBenchServer } from "../lib/setup.js";
import { preapprovalSendActors } from "./wallet-actors.js";

const seconds = Number(process.argv[2] ?? 8);
const loops = Number(process.argv[3] ?? 32);
const stage = process.env.SENDS_STAGE ?? "commit";
const automationOff = { collectRewards: false, mergeHoldings: false, renewPreapprovals: false, pausedTriggers: ["complete accepted offers", "complete traffic requests", "expire transfer offers", "send transfer commands"] };
const config = join(os.tmpdir(), `ccwallet-sends-in-process-${process.pid}.json`);
writeFileSync(config, JSON.stringify(process.env.SENDS_AUTOMATION ? {} : { automation: automationOff }));
const bs = await startBenchServer(1000, {}, { CCWALLET_CONFIG: config });

const { receiver, senders } = await preapprovalSendActors(bs, `in-process-${process.pid}`, loops);

// The stages below the wallet, cut away by replacing the client's call into the ledger.
const deps = bs.server.wallet;
const ledger = (deps.client as unknown as { ledger: Ledger }).ledger;
if (stage === "wallet") Object.assign(deps.client, { exercise: async () => ({ result: undefined, transaction: undefined }) });
if (stage === "interpret") {
  Object.assign(ledger, {
    submit: async (submission: Parameters<Ledger["interpret"]>[0]) => {
      const interpreted = await ledger.interpret(submission, ledger.clock.now(), newUpdateIds());
      return { kind: "committed", transaction: { nodes: interpreted.nodes }, results: interpreted.results };
    },
  });
}

const heap = process.env.SENDS_PROMOTED ? new Session() : undefined;
if (heap) {
  heap.connect();
  await heap.post("HeapProfiler.enable");
  await heap.post("HeapProfiler.startSampling", { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false });
}
console.log("MARK start");
const amount = Numeric.parse("0.01");
let sent = 0;
const t0 = performance.now();
const end = t0 + seconds * 1000;
await Promise.all(
  senders.map(async (sender, i) => {
    while (performance.now() < end) await sendViaPreapproval(deps, { sender: sender.party, receiver: receiver.party, amount, deduplicationId: `in-process-${i}-${sent++}` });
  }),
);
console.log(`MARK end: ${stage}, ${loops} loops, automation ${process.env.SENDS_AUTOMATION ? "on" : "off"}: ${Math.round(sent / ((performance.now() - t0) / 1000))} sends/s`);
if (heap) writeFileSync(process.env.SENDS_PROMOTED!, JSON.stringify((await heap.post("HeapProfiler.stopSampling")).profile));
await bs.stop();
process.exit(0);
