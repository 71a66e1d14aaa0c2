/**
 * Helpers of the concurrency suite (v0-races*.test.ts): fire the same request many times at once,
 * tally the answers, and read a party's money two independent ways — `GET /v0/wallet/balance`
 * (the wallet's holdings index) and the sum of its Amulet / LockedAmulet contracts on
 * `/v2/state/active-contracts`, each valued at the balance's round (holding fees accounted for) —
 * which must agree to the last decimal.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { expect } from "vitest";
import { Numeric } from "../../src/ledger/numeric.js";
import { startCc, type CcFixture } from "../support/cc-fixture.js";
import { ResponseLog } from "../support/openapi-validator.js";
import type { TestServer } from "../support/test-server.js";
import { acs, caller, fund, grpcClients, ofTemplate, onboard, type Created, type GrpcClients, type Wallet } from "./v0-coin-support.js";

export interface Races {
  readonly fx: CcFixture;
  readonly s: TestServer;
  readonly grpc: GrpcClients;
  readonly call: ReturnType<typeof caller>;
  /** The onboarded users by name. */
  readonly w: Record<string, Wallet>;
  /** Runs the automation (DSO and wallet triggers) until it has nothing left to do. */
  settle(): Promise<void>;
  /** Runs `f` with the automation stopped, so what requests did is seen before the wallet acts on it. */
  paused<T>(f: () => Promise<T>): Promise<T>;
}

/**
 * A static-time node with these users onboarded and funded (one tapped holding per amount);
 * `prepare` runs next; then time moves two rounds, so every holding carries accrued holding fees
 * that the sums of the tests must account for.
 */
export async function startRaces(users: Record<string, readonly string[]>, prepare: (r: Races) => Promise<void> = async () => {}): Promise<Races> {
  const fx = await startCc();
  const s = fx.t;
  const automation = s.server.network.automation;
  const r: Races = {
    fx,
    s,
    grpc: grpcClients(s),
    call: caller(s, new ResponseLog()),
    w: {},
    settle: () => automation.runNow(),
    async paused(f) {
      await automation.stop();
      try {
        return await f();
      } finally {
        automation.start();
      }
    },
  };
  for (const [name, amounts] of Object.entries(users)) {
    r.w[name] = await onboard(s, name);
    for (const amount of amounts) await fund(s, r.w[name].party, amount);
  }
  await prepare(r);
  await fx.toRound((await fx.openRound()).number + 2n);
  await r.settle();
  return r;
}

export interface Answer {
  readonly status: number;
  readonly body: any;
  readonly text: string;
}

/** `n` calls started together (none waits for another), answers in call order. */
export const race = <T>(n: number, call: (i: number) => Promise<T>): Promise<T[]> => Promise.all(Array.from({ length: n }, (_, i) => call(i)));

export const successes = (answers: readonly Answer[]) => answers.filter((a) => a.status === 200);

/** How many answers had each status, e.g. `{ 200: 1, 409: 19 }`. */
export function tally(answers: readonly { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

/** Every answer is a success or one of the refusals `allowed` (with the API's `{error}` shape). */
export function expectOnly(answers: readonly Answer[], allowed: readonly number[]): void {
  for (const a of answers) {
    if (a.status === 200) continue;
    expect(allowed, `unexpected ${a.status}: ${a.text}`).toContain(a.status);
    expect(a.body, a.text).toEqual({ error: expect.any(String) });
  }
}

/** An Amulet's `amount` as `/v2` shows it, worth at `round`: Splice's actualAmount (never negative). */
function worth(amount: { initialAmount: string; createdAt: { number: string }; ratePerRound: { rate: string } }, round: bigint): Numeric {
  const initial = Numeric.parse(amount.initialAmount);
  const elapsed = round - BigInt(amount.createdAt.number);
  const fee = elapsed <= 0n ? Numeric.zero : Numeric.parse(amount.ratePerRound.rate).mulInt(elapsed).min(initial);
  return initial.sub(fee);
}

const sumAt = (contracts: readonly Created[], round: bigint, amountOf: (c: Created) => any) =>
  contracts.reduce((sum, c) => sum.add(worth(amountOf(c), round)), Numeric.zero);

export interface Money {
  readonly unlocked: Numeric;
  readonly locked: Numeric;
  readonly total: Numeric;
  readonly holdings: number;
}

/**
 * The party's CC now, after checking that the wallet's balance equals its contracts on `/v2` and
 * that nothing is negative. Read when no request of the party is in flight.
 */
export async function money(s: TestServer, w: Wallet): Promise<Money> {
  const b = await s.json("GET", "/v0/wallet/balance", undefined, w.token);
  expect(b.status, b.text).toBe(200);
  const round = BigInt(b.body.round);
  const mine = await acs(s, w);
  const amulets = ofTemplate(mine, "Splice.Amulet:Amulet").filter((c) => c.createArgument.owner === w.party);
  const locked = ofTemplate(mine, "Splice.Amulet:LockedAmulet").filter((c) => c.createArgument.amulet.owner === w.party);
  const unlocked = sumAt(amulets, round, (c) => c.createArgument.amount);
  const lockedSum = sumAt(locked, round, (c) => c.createArgument.amulet.amount);
  expect(unlocked.toString(), "balance vs holdings on /v2").toBe(Numeric.parse(b.body.effective_unlocked_qty).toString());
  expect(lockedSum.toString(), "locked balance vs locked holdings on /v2").toBe(Numeric.parse(b.body.effective_locked_qty).toString());
  expect(unlocked.isNegative() || lockedSum.isNegative()).toBe(false);
  return { unlocked, locked: lockedSum, total: unlocked.add(lockedSum), holdings: amulets.length };
}

/** `a - b` as a decimal string (10 places), for readable failures. */
export const minus = (a: Money | Numeric, b: Money | Numeric) => (a instanceof Numeric ? a : a.total).sub(b instanceof Numeric ? b : b.total).toString();

/** `amount × n` as a decimal string. */
export const times = (amount: string, n: number) => Numeric.parse(amount).mulInt(BigInt(n)).toString();

const HTTP_OF_CODE: Partial<Record<Code, number>> = {
  [Code.InvalidArgument]: 400,
  [Code.NotFound]: 404,
  [Code.AlreadyExists]: 409,
  [Code.ResourceExhausted]: 429,
  [Code.Internal]: 500,
  [Code.Unavailable]: 503,
};

/** A Connect (gRPC) call as an Answer: 200 with its result, or the HTTP status of its code with `{error}`. */
export async function viaGrpc<T>(call: Promise<T>): Promise<Answer> {
  try {
    const body = await call;
    return { status: 200, body, text: "" };
  } catch (e) {
    if (!(e instanceof ConnectError)) throw e;
    const status = HTTP_OF_CODE[e.code] ?? 500;
    return { status, body: { error: e.rawMessage }, text: `gRPC ${Code[e.code]}: ${e.rawMessage}` };
  }
}

/**
 * Holds the first call of `target[method]` whose argument `matches` until `release()`, so a test
 * can let a competing request win a race deterministically; `held` resolves once it waits. E.g.
 * the ledger's `submit` (before interpretation) or the store's `commit` (after it).
 */
export function holdFirst<O, K extends keyof O>(target: O, method: K, matches: (arg: any) => boolean): { held: Promise<void>; release(): void } {
  const original = target[method] as (arg: unknown) => Promise<unknown>;
  let onHeld!: () => void;
  let open!: () => void;
  const held = new Promise<void>((r) => (onHeld = r));
  const gate = new Promise<void>((r) => (open = r));
  let taken = false;
  target[method] = (async (arg: unknown) => {
    if (!taken && matches(arg)) {
      taken = true;
      onHeld();
      await gate;
    }
    return original.call(target, arg);
  }) as O[K];
  return {
    held,
    release() {
      target[method] = original as O[K];
      open();
    },
  };
}

/**
 * A race with a fixed finish: `hold()` installs a hold (see holdFirst) that `loser()` runs into;
 * `winner()` then runs to its end (it must succeed) before the loser goes on. The loser's answer.
 */
export async function outrun(hold: () => { held: Promise<void>; release(): void }, loser: () => Promise<Answer>, winner: () => Promise<Answer>): Promise<Answer> {
  const h = hold();
  const lost = loser();
  await h.held;
  try {
    const won = await winner();
    expect(won.status, won.text).toBe(200);
  } finally {
    h.release();
  }
  return lost;
}
