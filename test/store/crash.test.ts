/**
 * Crash test: "acknowledged means durable" and "no half transaction", end to end.
 *
 * The real server runs as a child process on the embedded store. 16 clients submit creates and
 * splits (archive + 2 creates) as fast as they can; mid-load the child is SIGKILLed, so no
 * shutdown code runs. A new server on the same data dir must then have every acknowledged command
 * (its update and its completion), dense completion offsets 1..end, and an active contract set
 * equal to the fold of all updates, with the Iou amounts conserved by every transaction.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { issueToken } from "../../src/auth/index.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SECRET = "crash-test-secret-0123456789abcdef";
const ADMIN = "participant_admin";
const IOU = "#ccwallet-demo:Ccwallet.Demo.Iou:Iou";
const LOOPS = 16;
const LOAD_MS = 1_500;
const PAGE = 1_000;
const MAX_LIVES = 3;

// ---------------------------------------------------------------------------------------------
// The child server

interface Child {
  readonly process: ChildProcess;
  readonly http: string;
  readonly output: string[];
  readonly exited: Promise<number | null>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      if (address === null || typeof address === "string") return reject(new Error("no port"));
      srv.close(() => resolve(address.port));
    });
  });
}

const children: Child[] = [];

async function startChild(dataDir: string): Promise<Child> {
  const [httpPort, grpcPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CCWALLET_DATA_DIR: dataDir,
    CCWALLET_STORE: "sqlite",
    CCWALLET_HTTP_PORT: String(httpPort),
    CCWALLET_GRPC_PORT: String(grpcPort),
    CCWALLET_HOST: "127.0.0.1",
    CCWALLET_AUTH_SECRET: SECRET,
    CCWALLET_ADMIN_USER: ADMIN,
    CCWALLET_LOG_LEVEL: "warn",
    CCWALLET_HTTP_LIST_MAX_ELEMENTS: "100000",
  };
  delete env.CCWALLET_CONFIG;
  delete env.CCWALLET_AUTH_JWKS_URL;
  delete env.CCWALLET_AUTH_AUDIENCE;
  const proc = spawn(process.execPath, ["--import", "tsx", "src/main.ts", "serve"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = [];
  proc.stdout!.on("data", (d: Buffer) => output.push(d.toString()));
  proc.stderr!.on("data", (d: Buffer) => output.push(d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  const child: Child = { process: proc, http: `http://127.0.0.1:${httpPort}`, output, exited };
  children.push(child);

  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 25_000;
  for (;;) {
    if (gone) throw new Error(`server exited during start:\n${output.join("")}`);
    if (Date.now() > deadline) throw new Error(`server did not answer /v2/version in time:\n${output.join("")}`);
    try {
      const res = await fetch(`${child.http}/v2/version`);
      if (res.status === 200) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function killChild(child: Child, signal: NodeJS.Signals): Promise<number | null> {
  if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill(signal);
  return child.exited;
}

// ---------------------------------------------------------------------------------------------
// HTTP

const secret = new TextEncoder().encode(SECRET);
const tokenFor = (userId: string) => issueToken({ secret, userId });

async function call(base: string, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // plain text
  }
  return { status: res.status, body: parsed };
}

async function ok(base: string, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const r = await call(base, token, method, path, body);
  if (r.status !== 200) throw new Error(`${method} ${path} -> ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

const createCommand = (party: string, commandId: string) => ({
  commands: {
    commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: party, owner: party, currency: "CC", amount: "10", observers: [] } } }],
    commandId,
    actAs: [party],
  },
});

const splitCommand = (party: string, commandId: string, contractId: string) => ({
  commands: {
    commands: [{ ExerciseCommand: { templateId: IOU, contractId, choice: "Iou_Split", choiceArgument: { splitAmount: "1" } } }],
    commandId,
    actAs: [party],
  },
});

const transactionFormat = (party: string) => ({
  eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: {} } } }] } } },
  transactionShape: "TRANSACTION_SHAPE_ACS_DELTA",
});

/** Numeric 10 as an exact integer count of 10^-10. */
function units(amount: string): bigint {
  const [whole, fraction = ""] = amount.split(".");
  return BigInt(whole) * 10_000_000_000n + BigInt(fraction.padEnd(10, "0").slice(0, 10) || "0");
}
const TEN = units("10");
const ONE = units("1");

interface Created {
  readonly contractId: string;
  readonly amount: bigint;
}

function createdOf(transaction: any): Created[] {
  return (transaction.events as any[])
    .filter((e) => e.CreatedEvent)
    .map((e) => ({ contractId: e.CreatedEvent.contractId as string, amount: units(e.CreatedEvent.createArgument.amount as string) }));
}

// ---------------------------------------------------------------------------------------------
// The load

interface Acked {
  readonly updateId: string;
  readonly offset: number;
  readonly created: Created[];
  readonly archived?: string;
}

/** What the load keeps across the server's lives: the party, the answers and each loop's Ious. */
interface Load {
  readonly party: string;
  readonly token: string;
  readonly acked: Map<string, Acked>;
  readonly rejectedAcks: Map<string, { status: number; code: string }>;
  readonly loops: { pool: Created[]; spent: string[] }[];
}

/**
 * Runs the loops against `server` for LOAD_MS, SIGKILLs it, and returns how many requests were
 * left without an answer by the kill.
 */
async function loadUntilKilled(server: Child, load: Load): Promise<number> {
  const { party, token, acked, rejectedAcks } = load;
  let inFlight = 0;
  let killed = false;
  const loop = async (n: number) => {
    const { pool, spent } = load.loops[n];
    for (;;) {
      if (killed) return;
      const commandId = `crash-${n}-${randomUUID()}`;
      const roll = Math.random();
      let body: unknown;
      let splitting: Created | undefined;
      const splittable = pool.findIndex((c) => c.amount >= 2n * ONE);
      if (roll < 0.05 && spent.length > 0) {
        // Exercising an archived contract: a rejection, which still takes an offset.
        body = splitCommand(party, commandId, spent[Math.floor(Math.random() * spent.length)]);
      } else if (roll < 0.55 && splittable >= 0) {
        splitting = pool.splice(splittable, 1)[0];
        body = splitCommand(party, commandId, splitting.contractId);
      } else {
        body = createCommand(party, commandId);
      }
      let r: { status: number; body: any };
      try {
        r = await call(server.http, token, "POST", "/v2/commands/submit-and-wait-for-transaction", body);
      } catch {
        if (!killed) throw new Error(`request failed before the kill:\n${server.output.join("")}`);
        inFlight++;
        return;
      }
      if (r.status === 200) {
        const tx = r.body.transaction;
        const created = createdOf(tx);
        acked.set(commandId, { updateId: tx.updateId, offset: tx.offset, created, archived: splitting?.contractId });
        pool.push(...created);
        if (splitting) spent.push(splitting.contractId);
      } else if (typeof r.body === "object" && r.body !== null && typeof r.body.code === "string") {
        rejectedAcks.set(commandId, { status: r.status, code: r.body.code });
        if (splitting) pool.push(splitting);
      } else {
        throw new Error(`unexpected answer ${r.status}: ${JSON.stringify(r.body)}`);
      }
    }
  };
  const loops = Promise.all(load.loops.map((_, n) => loop(n)));
  loops.catch(() => undefined); // awaited below; a failure before the kill must not go unhandled meanwhile
  await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
  killed = true;
  expect(await killChild(server, "SIGKILL")).toBeNull(); // killed by the signal, not exited
  expect(server.process.signalCode).toBe("SIGKILL");
  await loops;
  return inFlight;
}

// ---------------------------------------------------------------------------------------------

describe("crash: SIGKILL under load, restart on the same data", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "ccwallet-crash-"));

  afterAll(async () => {
    for (const c of children) await killChild(c, "SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps every acknowledged command, dense offsets and no half transaction", { timeout: 120_000 }, async () => {
    // --- first life: set up, then load until killed
    const first = await startChild(dataDir);
    const admin = await tokenFor(ADMIN);
    const allocated = await ok(first.http, admin, "POST", "/v2/parties", { partyIdHint: "crash" });
    const party = allocated.partyDetails.party as string;
    const userId = "crash-user";
    await ok(first.http, admin, "POST", "/v2/users", {
      user: { id: userId, primaryParty: party },
      rights: [{ kind: { CanActAs: { value: { party } } } }],
    });
    const token = await tokenFor(userId);
    // The network's genesis (DSO, rules, rounds) took the first offsets; the party's commands follow.
    const base = Number((await ok(first.http, admin, "GET", "/v2/state/ledger-end")).offset);

    /** Acknowledged (HTTP 200) commands: their transaction as the server returned it. */
    const acked = new Map<string, Acked>();
    /** Commands answered with a ledger rejection: they too must have a (failed) completion. */
    const rejectedAcks = new Map<string, { status: number; code: string }>();
    const load: Load = { party, token, acked, rejectedAcks, loops: Array.from({ length: LOOPS }, () => ({ pool: [], spent: [] })) };

    // A kill lands mid-load only if some answer is still owed. On a starved CI machine all 16
    // answers can already sit unread in the client's sockets when the signal goes; then the server
    // restarts on the same data and the load goes on, up to MAX_LIVES kills (each one a crash
    // the checks below must survive too).
    let inFlightAtKill = 0;
    let lives = 0;
    let server = first;
    for (;;) {
      lives++;
      inFlightAtKill += await loadUntilKilled(server, load);
      if (inFlightAtKill > 0 || lives === MAX_LIVES) break;
      server = await startChild(dataDir);
    }

    // The kill really happened mid-load, after real work.
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(acked.size).toBeGreaterThan(50);
    const ackedSplits = [...acked.values()].filter((a) => a.archived).length;
    expect(ackedSplits).toBeGreaterThan(10);

    // --- second life: everything acknowledged is there
    const second = await startChild(dataDir);
    const end = Number((await ok(second.http, token, "GET", "/v2/state/ledger-end")).offset);
    const maxAcked = Math.max(...[...acked.values()].map((a) => a.offset));
    expect(end).toBeGreaterThanOrEqual(maxAcked);

    // Completions: dense base+1..end (after genesis, the party's commands are the only ones).
    const completions: any[] = [];
    for (let cursor = base; cursor < end; ) {
      const page = await ok(second.http, token, "POST", `/v2/commands/completions?limit=${PAGE}&stream_idle_timeout_ms=300`, {
        parties: [party],
        beginExclusive: cursor,
      });
      const values = (page as any[]).map((p) => p.completionResponse.Completion.value);
      if (values.length === 0) break;
      completions.push(...values);
      cursor = Number(values[values.length - 1].offset);
    }
    expect(completions.map((c) => Number(c.offset))).toEqual(Array.from({ length: end - base }, (_, i) => base + i + 1));
    const completionOf = new Map<string, any>();
    for (const c of completions) {
      expect(completionOf.has(c.commandId), `two completions for ${c.commandId}`).toBe(false);
      completionOf.set(c.commandId, c);
    }
    for (const [commandId, a] of acked) {
      const c = completionOf.get(commandId);
      expect(c, `completion of acknowledged ${commandId}`).toBeDefined();
      expect({ offset: Number(c.offset), updateId: c.updateId, code: c.status.code }).toEqual({ offset: a.offset, updateId: a.updateId, code: 0 });
    }
    for (const [commandId, r] of rejectedAcks) {
      const c = completionOf.get(commandId);
      expect(c, `completion of rejected ${commandId} (${r.status} ${r.code})`).toBeDefined();
      expect(c.status.code).not.toBe(0);
      expect(c.updateId ?? "").toBe("");
    }

    // Every acknowledged update is retrievable by id, as it was acknowledged.
    const ackedList = [...acked.values()];
    for (let i = 0; i < ackedList.length; i += 16) {
      await Promise.all(
        ackedList.slice(i, i + 16).map(async (a) => {
          const r = await ok(second.http, token, "POST", "/v2/updates/update-by-id", {
            updateId: a.updateId,
            updateFormat: { includeTransactions: transactionFormat(party) },
          });
          const tx = r.update.Transaction.value;
          expect(Number(tx.offset)).toBe(a.offset);
          expect(createdOf(tx)).toEqual(a.created);
          const archived = (tx.events as any[]).filter((e) => e.ArchivedEvent).map((e) => e.ArchivedEvent.contractId);
          expect(archived).toEqual(a.archived ? [a.archived] : []);
        }),
      );
    }

    // All updates: each one whole, each matching its completion; the ACS is their fold.
    const updates: any[] = [];
    for (let cursor = 0; cursor < end; ) {
      const page = await ok(second.http, token, "POST", `/v2/updates?limit=${PAGE}&stream_idle_timeout_ms=300`, {
        beginExclusive: cursor,
        endInclusive: end,
        updateFormat: { includeTransactions: transactionFormat(party) },
      });
      const txs = (page as any[]).map((u) => u.update.Transaction.value);
      if (txs.length === 0) break;
      updates.push(...txs);
      cursor = Number(txs[txs.length - 1].offset);
    }
    const successful = completions.filter((c) => c.status.code === 0);
    expect(updates.map((t) => [Number(t.offset), t.updateId])).toEqual(successful.map((c) => [Number(c.offset), c.updateId]));

    const fold = new Map<string, bigint>();
    let creates = 0;
    for (const tx of updates) {
      const created = createdOf(tx);
      const archived = (tx.events as any[]).filter((e) => e.ArchivedEvent).map((e) => e.ArchivedEvent.contractId as string);
      if (archived.length === 0) {
        // A create command: one Iou of 10.
        expect(created.map((c) => c.amount)).toEqual([TEN]);
        creates++;
      } else {
        // A split: the input archived, two outputs of 1 and the rest.
        expect(archived).toHaveLength(1);
        const input = fold.get(archived[0]);
        expect(input, `update ${tx.offset} archives an inactive contract`).toBeDefined();
        expect(created.map((c) => c.amount).sort()).toEqual([ONE, input! - ONE].sort());
        fold.delete(archived[0]);
      }
      for (const c of created) {
        expect(fold.has(c.contractId)).toBe(false);
        fold.set(c.contractId, c.amount);
      }
    }

    const acs = (await ok(second.http, token, "POST", "/v2/state/active-contracts", {
      eventFormat: { filtersByParty: { [party]: { cumulative: [] } } },
      activeAtOffset: end,
    })) as any[];
    const active = new Map<string, bigint>(
      acs.map((e) => {
        const ev = e.contractEntry.JsActiveContract.createdEvent;
        return [ev.contractId as string, units(ev.createArgument.amount as string)];
      }),
    );
    expect(active.size).toBe(acs.length);
    expect([...active.entries()].sort()).toEqual([...fold.entries()].sort());
    let total = 0n;
    for (const v of active.values()) total += v;
    expect(total).toBe(TEN * BigInt(creates));

    // --- and the ledger goes on at end + 1, spending a contract created before the crash
    const survivor = [...active.entries()].find(([, amount]) => amount >= 2n * ONE)![0];
    const after = await ok(second.http, token, "POST", "/v2/commands/submit-and-wait-for-transaction", splitCommand(party, "after-restart", survivor));
    expect(Number(after.transaction.offset)).toBe(end + 1);

    expect(await killChild(second, "SIGTERM")).toBe(0);
  });
});
