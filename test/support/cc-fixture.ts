/**
 * A real node in static time plus typed helpers to drive Canton Coin through the engine in
 * process (the same `Ledger.submit` path the APIs use), and to step time round by round.
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { choiceOf } from "./choice-of.js";
import type { LedgerClient, SubmitOptions } from "../../src/ledger/ledger-client.js";
import { CheckedLedgerClient } from "./checked-ledger-client.js";
import { Numeric } from "../../src/ledger/numeric.js";
import { StaticClock } from "../../src/ledger/clock.js";
import { LedgerError } from "../../src/ledger/errors.js";
import { latestOpenRound, readNetwork, type NetworkState } from "../../src/network/network-state.js";
import {
  Amulet,
  AmuletRules,
  currentAmount,
  FeaturedAppRight,
  TransferPreapproval,
  simpleTransferContext,
  type AmuletPayload,
  type AmuletRulesPayload,
  type Metadata,
  type PaymentTransferContext,
  type Transfer,
  type TransferContext,
  type TransferInput,
  type TransferOutput,
  type TransferPreapprovalPayload,
  type TransferResult,
} from "../../src/templates/splice/index.js";
import type { ContractRecord, NodeRecord } from "../../src/ledger/records.js";
import { startTestServer, type TestServer } from "./test-server.js";

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
  /** Sum of the party's unlocked holdings at the latest open round (what a wallet shows). */
  balance(party: string): Promise<Numeric>;
  /** Exercises a choice of `AmuletRules` with the network's contracts disclosed. */
  rules<R>(actAs: readonly string[], choice: string, argument: unknown, options?: SubmitOptions): Promise<R>;
  /** `AmuletRules_Transfer` at the latest open round (context extras merged in). */
  transfer(actAs: readonly string[], transfer: TransferSpec, context?: Partial<TransferContext>): Promise<TransferResult>;
  /** The validator's FeaturedAppRight (disclosed to whoever needs it). */
  featuredRight(): Promise<{ contractId: string; record: ContractRecord }>;
  /** PaymentTransferContext at the latest open round. */
  paymentContext(context?: Partial<TransferContext>): Promise<PaymentTransferContext>;
  /** AmuletRules_CreateTransferPreapproval paid by the provider from `inputs`. */
  createPreapproval(provider: string, receiver: string, inputs: readonly TransferInput[], expiresAt: bigint): Promise<CreatePreapprovalResult>;
  /** TransferPreapproval_Send by `sender` (the preapproval disclosed to them). */
  send(sender: string, preapprovalCid: string, inputs: readonly TransferInput[], amount: string, opts?: { featured?: boolean; description?: string }): Promise<SendResult>;
  /** Every transaction node committed so far, with its offset, in ledger order. */
  nodes(): Promise<{ offset: bigint; node: NodeRecord }[]>;
  /** Every active contract id, sorted: equal before and after a refused command. */
  snapshot(): Promise<string[]>;
  stop(): Promise<void>;
}

export interface TransferSpec {
  readonly sender: string;
  readonly provider?: string;
  readonly inputs: readonly TransferInput[];
  readonly outputs: readonly OutputSpec[];
}

export interface CreatePreapprovalResult {
  readonly transferPreapprovalCid: string;
  readonly transferResult: TransferResult;
  readonly amuletPaid: Numeric;
  readonly meta: Metadata | null;
}

export interface SendResult {
  readonly result: TransferResult;
  readonly meta: Metadata | null;
}

export interface OutputSpec {
  readonly receiver: string;
  readonly amount: Numeric | string;
  readonly receiverFeeRatio?: Numeric;
  readonly lock?: TransferOutput["lock"];
}

export const N = (s: string) => Numeric.parse(s);
export const amuletInput = (cid: string): TransferInput => ({ tag: "InputAmulet", value: cid });

/** A CCWALLET_CONFIG file with these sections; returns the env to pass to startCc. */
export function configFile(sections: Record<string, unknown>): Record<string, string> {
  const file = join(tmpdir(), `ccwallet-cc-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(sections));
  return { CCWALLET_CONFIG: file };
}

/** A CCWALLET_CONFIG file with these network parameters. */
export const networkConfig = (network: Record<string, unknown>) => configFile({ network });

/** Asserts that a command is refused with a ledger error whose message matches. */
export async function refused(p: Promise<unknown>, message: RegExp): Promise<LedgerError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, "the command was accepted").toBeInstanceOf(LedgerError);
  expect((e as LedgerError).message).toMatch(message);
  return e as LedgerError;
}

/** `dataDir`: restart a node stopped before (its namespace and ledger kept); the caller removes it. */
export async function startCc(env: Record<string, string> = {}, dataDir?: string): Promise<CcFixture> {
  const t = await startTestServer({ CCWALLET_TIME: "static", ...env }, dataDir);
  const { server } = t;
  const clock = server.api.clock as StaticClock;
  const client = new CheckedLedgerClient(server.api.ledger, "cc-test", server.api.namespace);
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
    async balance(party) {
      const round = (await fx.openRound()).number;
      return (await fx.holdings(party)).reduce((sum, h) => sum.add(currentAmount(h.payload.amount, round)), Numeric.zero);
    },
    async rules<R>(actAs: readonly string[], choice: string, argument: unknown, options: SubmitOptions = {}) {
      const s = await fx.network();
      const disclosed = [...(await fx.disclosed()), ...(options.disclosed ?? [])];
      const { result } = await client.exercise(actAs, AmuletRules, s.rules.contractId, choiceOf<AmuletRulesPayload, unknown, R>(AmuletRules, choice), argument, {
        ...options,
        disclosed,
      });
      return result;
    },
    async transfer(actAs, spec, context = {}) {
      const open = await fx.openRound();
      const transfer: Transfer = {
        sender: spec.sender,
        provider: spec.provider ?? spec.sender,
        inputs: [...spec.inputs],
        outputs: spec.outputs.map((o) => ({
          receiver: o.receiver,
          receiverFeeRatio: o.receiverFeeRatio ?? Numeric.zero,
          amount: typeof o.amount === "string" ? Numeric.parse(o.amount) : o.amount,
          lock: o.lock ?? null,
        })),
        beneficiaries: null,
      };
      const extra = context.featuredAppRight ? [(await fx.featuredRight()).record] : [];
      return fx.rules<TransferResult>(actAs, "AmuletRules_Transfer", { transfer, context: { ...simpleTransferContext(open.contractId), ...context } }, { disclosed: extra });
    },
    async featuredRight() {
      const [right] = await client.active(FeaturedAppRight, [validator]);
      if (!right) throw new Error("the validator has no FeaturedAppRight");
      return { contractId: right.contractId, record: right.record };
    },
    async paymentContext(context = {}) {
      const s = await fx.network();
      const open = await fx.openRound();
      return { amuletRules: s.rules.contractId, context: { ...simpleTransferContext(open.contractId), ...context } };
    },
    async createPreapproval(provider, receiver, inputs, expiresAt) {
      return fx.rules<CreatePreapprovalResult>([provider, receiver], "AmuletRules_CreateTransferPreapproval", {
        context: await fx.paymentContext(),
        inputs: [...inputs],
        receiver,
        provider,
        expiresAt,
      });
    },
    async send(sender, preapprovalCid, inputs, amount, opts = {}) {
      const pre = await client.contract(TransferPreapproval, preapprovalCid);
      const featured = opts.featured ? await fx.featuredRight() : undefined;
      const disclosed = [...(await fx.disclosed()), ...(pre ? [pre.record] : []), ...(featured ? [featured.record] : [])];
      const { result } = await client.exercise(
        [sender],
        TransferPreapproval,
        preapprovalCid,
        choiceOf<TransferPreapprovalPayload, unknown, SendResult>(TransferPreapproval, "TransferPreapproval_Send"),
        {
          context: await fx.paymentContext(featured ? { featuredAppRight: featured.contractId } : {}),
          inputs: [...inputs],
          amount: Numeric.parse(amount),
          sender,
          description: opts.description ?? null,
        },
        { disclosed },
      );
      return result;
    },
    async nodes() {
      const store = server.api.ledger.store;
      const txs = await store.transactions(0n, await store.ledgerEnd(), 1_000_000);
      return txs.flatMap((tx) => tx.nodes.map((node) => ({ offset: tx.offset, node })));
    },
    async snapshot() {
      return (await server.api.ledger.store.activeContracts({})).map((c) => c.contractId).sort();
    },
    stop: () => t.stop(),
  };
  return fx;
}
