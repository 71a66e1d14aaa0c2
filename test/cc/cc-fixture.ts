/**
 * A real node in static time plus typed helpers to drive Canton Coin through the engine in
 * process (the same `Ledger.submit` path the APIs use), and to step time round by round.
 */
import { choiceOf, LedgerClient } from "../../src/ledger/ledger-client.js";
import { Numeric } from "../../src/ledger/numeric.js";
import { StaticClock } from "../../src/ledger/clock.js";
import { latestOpenRound, readNetwork, type NetworkState } from "../../src/dso/index.js";
import { Amulet, AmuletRules, type AmuletPayload, type AmuletRulesPayload } from "../../src/templates/splice/index.js";
import type { ContractRecord } from "../../src/ledger/records.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

export const TICK = 600_000_000n;

export interface CcFixture {
  readonly t: TestServer;
  readonly client: LedgerClient;
  readonly dso: string;
  readonly validator: string;
  readonly clock: StaticClock;
  party(hint: string): Promise<string>;
  network(): Promise<NetworkState>;
  /** Moves ledger time forward and waits for the DSO automation to catch up. */
  advance(micros: bigint): Promise<void>;
  /** Steps one tick at a time until `round` is the latest open round. */
  toRound(round: bigint): Promise<void>;
  openRound(): Promise<{ contractId: string; number: bigint; record: ContractRecord }>;
  /** The disclosed contracts a user needs for transfers: AmuletRules and the open rounds. */
  disclosed(): Promise<ContractRecord[]>;
  tap(party: string, amount: string): Promise<string>;
  holdings(party: string): Promise<{ contractId: string; payload: AmuletPayload }[]>;
  stop(): Promise<void>;
}

export async function startCc(env: Record<string, string> = {}): Promise<CcFixture> {
  const t = await startTestServer({ CCWALLET_TIME: "static", ...env });
  const { server } = t;
  const clock = server.api.clock as StaticClock;
  const client = new LedgerClient(server.api.ledger, "cc-test", server.api.namespace);
  const { dso, validator } = server.network.parties;
  let n = 0;
  const fx: CcFixture = {
    t,
    client,
    dso,
    validator,
    clock,
    party: (hint) => client.allocateParty(`${hint}-${++n}`),
    network: () => readNetwork(client, dso),
    async advance(micros) {
      clock.set(clock.now(), clock.now() + micros);
      await server.network.automation.settled();
    },
    async toRound(round) {
      for (let i = 0; i < 1000; i++) {
        if ((await fx.openRound()).number >= round) return;
        await fx.advance(TICK);
      }
      throw new Error(`round ${round} never opened`);
    },
    async openRound() {
      const r = latestOpenRound(await fx.network(), clock.now());
      return { contractId: r.contractId, number: r.payload.round.number, record: r.record };
    },
    async disclosed() {
      const s = await fx.network();
      return [s.rules.record, ...s.openRounds.map((r) => r.record), ...s.issuingRounds.map((r) => r.record)];
    },
    async tap(party, amount) {
      const s = await fx.network();
      const round = latestOpenRound(s, clock.now());
      const { result } = await client.exercise(
        [party],
        AmuletRules,
        s.rules.contractId,
        choiceOf<AmuletRulesPayload, unknown, { amuletSum: { amulet: string } }>(AmuletRules, "AmuletRules_DevNet_Tap"),
        { receiver: party, amount: Numeric.parse(amount), openRound: round.contractId },
        { disclosed: await fx.disclosed() },
      );
      return result.amuletSum.amulet;
    },
    async holdings(party) {
      return (await client.active(Amulet, [party])).filter((a) => a.payload.owner === party);
    },
    stop: () => t.stop(),
  };
  return fx;
}
