/**
 * Reads of the current state against the ledger at the durable end, at random: concurrent commits
 * (creates, archives, conflicts, made-up and duplicate ids, keys, batches of a contract a batch in
 * flight creates) and reads at random points, notably while a batch is committed by the writer but
 * not answered, each compared with the ACS at the store's durable end reconstructed from the file
 * by a second connection. Found the gaps of the first bounded version (session 28). More runs:
 * DURABLE_SEEDS (comma list), DURABLE_STEPS, DURABLE_STORE (file|memory), DURABLE_BULK (contracts
 * preloaded, so the hot cache evicts), DURABLE_LOCKER=1 (the write lock held from another
 * connection now and then, so the writer takes batches alone), DURABLE_LISTENER=1 (reads in
 * onLedgerEnd listeners too).
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { ContractRecord } from "../../src/ledger/records.js";
import type { CommitResult, ContractQuery, TransactionCommit } from "../../src/ledger/store-port.js";
import { decodeRecord } from "../../src/store/codec.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { contract, txCommit } from "./conformance.js";
import { freshFile, internals, turn } from "./file-spy.js";

const PARTIES = ["alice::1220aa", "bob::1220bb", "carol::1220cc"];
const TEMPLATES = ["pkg1:Demo.Holding:Holding", "pkg1:Demo.Locked:Locked", "pkg1:Demo.Keyed:Keyed"];
const KEYED = TEMPLATES[2];

function mulberry32(a: number) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Row { cid: string; co: bigint; nid: bigint; ao: bigint | null; tpl: string }

class Reconstruction {
  private readonly db: Database.Database;
  private readonly own: boolean;
  private readonly decoded = new Map<string, ContractRecord>();
  private readonly rowsStmt: Database.Statement;
  private readonly maxStmt: Database.Statement;
  private readonly recStmt: Database.Statement;
  private readonly txStmt: Database.Statement;
  constructor(file: string, store: SqliteStore) {
    this.own = file === ":memory:";
    this.db = this.own ? internals(store).db : new Database(file, { readonly: true });
    this.db.defaultSafeIntegers(true);
    this.rowsStmt = this.db.prepare("SELECT contract_id AS cid, created_offset AS co, node_id AS nid, archived_offset AS ao, template_id AS tpl FROM contracts WHERE created_offset <= ? AND (archived_offset IS NULL OR archived_offset > ?) ORDER BY created_offset, node_id");
    this.maxStmt = this.db.prepare("SELECT MAX(m) AS m FROM (SELECT MAX(offset) AS m FROM transactions UNION ALL SELECT MAX(offset) FROM completions)");
    this.recStmt = this.db.prepare("SELECT record, archived_offset AS ao FROM contracts WHERE contract_id = ?");
    this.txStmt = this.db.prepare("SELECT 1 FROM transactions WHERE offset = ?");
  }
  maxOffset(): bigint {
    return BigInt((this.maxStmt.get() as { m: bigint | null }).m ?? 0n);
  }
  spinUntilAhead(of: bigint, ms: number): boolean {
    const deadline = performance.now() + ms;
    while (this.maxOffset() <= of) if (performance.now() > deadline) return false;
    return true;
  }
  private record(cid: string): ContractRecord {
    let c = this.decoded.get(cid);
    if (!c) {
      c = decodeRecord<ContractRecord>((this.recStmt.get(cid) as { record: string }).record);
      this.decoded.set(cid, c);
    }
    return c;
  }
  acs(E: bigint, q: Pick<ContractQuery, "parties" | "templateIds">): string[] {
    const out: string[] = [];
    for (const r of this.rowsStmt.all(E, E) as Row[]) {
      if (q.templateIds && !q.templateIds.includes(r.tpl)) continue;
      if (q.parties) {
        const c = this.record(r.cid);
        if (![...c.signatories, ...c.observers].some((p) => q.parties!.includes(p))) continue;
      }
      out.push(r.cid);
    }
    return out;
  }
  /** Whether a transaction (not only a completion) is at this offset in the file. */
  hasTransaction(offset: bigint): boolean {
    return this.txStmt.get(offset) !== undefined;
  }
  history(E: bigint, cid: string): string {
    const r = this.recStmt.get(cid) as { record: string; ao: bigint | null } | undefined;
    if (!r) return "none";
    const c = decodeRecord<ContractRecord>(r.record);
    if (c.createdOffset > E) return "none";
    return r.ao !== null && BigInt(r.ao) <= E ? `archived@${r.ao}` : `active@${c.createdOffset}`;
  }
  close() {
    if (!this.own) this.db.close();
  }
}

interface Stats { reads: number; windowReads: number; listenerReads: number; commits: number; committed: number; rejected: number; failed: number; reopens: number; blindHandovers: number; inFlightArchiveReads: number }
interface Discrepancy { seed: number; step: number; where: string; kind: string; query: unknown; E: bigint; inFlight: number; expected: unknown; got: unknown; ctx?: unknown }

async function runSeed(seed: number, steps: number, mode: "file" | "memory", bulk: number, locker: boolean, listener: boolean, stats: Stats, found: Discrepancy[]) {
  const rnd = mulberry32(seed);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const chance = (p: number) => rnd() < p;
  const file = mode === "memory" ? ":memory:" : freshFile();
  let store = new SqliteStore({ file });
  let spy = new Reconstruction(file, store);
  const known: string[] = []; // every contract id ever put in a create
  let inFlightCreated: string[] = []; // created by commits not yet answered
  const activeGuess = new Set<string>(); // active after the answers so far
  const pending = new Set<Promise<unknown>>();
  let step = 0;

  const randomParties = () => {
    const ps = PARTIES.filter(() => chance(0.45));
    return ps.length ? ps : [pick(PARTIES)];
  };
  const randomQuery = (): ContractQuery => {
    const q: { parties?: string[]; templateIds?: string[] } = {};
    const pr = rnd();
    if (pr < 0.1) q.parties = undefined;
    else if (pr < 0.13) q.parties = [];
    else if (pr < 0.6) q.parties = [pick(PARTIES)];
    else if (pr < 0.95) q.parties = randomParties();
    else q.parties = [pick(PARTIES), pick(PARTIES)]; // maybe duplicate (parties: harmless)
    const tr = rnd();
    if (tr < 0.15) q.templateIds = undefined;
    else if (tr < 0.18) q.templateIds = [];
    else if (tr < 0.6) q.templateIds = [pick(TEMPLATES)];
    else if (tr < 0.95) q.templateIds = TEMPLATES.filter(() => chance(0.6));
    else q.templateIds = [pick(TEMPLATES), pick(TEMPLATES), "pkg1:Other:Other"]; // maybe duplicate
    if (bulk > 0 && q.parties === undefined && q.templateIds === undefined && !chance(0.2)) q.templateIds = [pick(TEMPLATES)];
    return q;
  };

  const newContract = (i: number) => {
    const template = pick(TEMPLATES);
    const signatories = randomParties();
    const observers = chance(0.3) ? [pick(PARTIES)].filter((p) => !signatories.includes(p)) : [];
    let c: Omit<ContractRecord, "createdOffset"> = contract({ template, signatories, observers, nodeId: i, ...(template === KEYED && chance(0.7) ? { keyHash: `k${Math.floor(rnd() * 4)}` } : {}) });
    if (template === KEYED && c.templateId !== KEYED) c = { ...c, templateId: KEYED };
    if (chance(0.02) && known.length) c = { ...c, contractId: pick(known) }; // duplicate contract id
    return c;
  };

  const randomRequest = (): TransactionCommit => {
    const archives: string[] = [];
    const na = pick([0, 0, 1, 1, 1, 2, 3]);
    for (let i = 0; i < na; i++) {
      const r = rnd();
      if (r < 0.25 && inFlightCreated.length) archives.push(pick(inFlightCreated));
      else if (r < 0.8 && activeGuess.size) archives.push(pick([...activeGuess]));
      else if (r < 0.3) archives.push(`00made-up-${Math.floor(rnd() * 1e9)}`);
      else if (known.length) archives.push(known[Math.max(0, known.length - 1 - Math.floor(rnd() * Math.min(known.length, chance(0.8) ? 40 : known.length)))]);
    }
    if (chance(0.03) && archives.length) archives.push(archives[0]); // the same archive twice
    const nc = chance(0.03) ? 50 + Math.floor(rnd() * 200) : pick([0, 1, 1, 1, 2, 3]);
    const creates = Array.from({ length: nc }, (_, i) => newContract(archives.length + i));
    const fetches = chance(0.2) && known.length ? [pick(known)] : [];
    const base = txCommit({ archives, creates, fetches, ...(chance(0.05) ? { dedup: { changeKey: `ck${Math.floor(rnd() * 5)}`, since: 0n } } : {}) });
    let req: TransactionCommit = base;
    if (chance(0.3)) req = { ...req, transaction: { ...req.transaction, nodes: req.transaction.nodes.filter((n) => n.kind !== "exercise") } }; // no consuming nodes
    if (chance(0.05)) req = { ...req, inputs: req.inputs.filter((cid) => !archives.includes(cid)) }; // archives not among inputs
    return req;
  };

  const submit = () => {
    const req = randomRequest();
    const ids = req.creates.map((c) => c.contractId);
    for (const id of ids) known.push(id);
    inFlightCreated.push(...ids);
    stats.commits++;
    const blindBefore = internals(store).blind;
    const p: Promise<unknown> = store.commit(req).then(
      (r: CommitResult) => {
        if (r.kind === "committed") {
          stats.committed++;
          for (const a of req.archives) activeGuess.delete(a);
          for (const id of ids) activeGuess.add(id);
        }
        else stats.rejected++;
        inFlightCreated = inFlightCreated.filter((id) => !ids.includes(id));
        if (chance(0.3)) readBurst("continuation");
      },
      () => {
        stats.failed++;
        inFlightCreated = inFlightCreated.filter((id) => !ids.includes(id));
      },
    );
    void blindBefore;
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };

  const compare = (where: string, kind: string, query: unknown, E: bigint, inFlight: number, expected: unknown, got: unknown, ctx?: { blind: number; inFlightArchives: string[] }) => {
    if (JSON.stringify(expected, (_k, v) => (typeof v === "bigint" ? v.toString() : v)) !== JSON.stringify(got, (_k, v) => (typeof v === "bigint" ? v.toString() : v))) {
      if (Array.isArray(expected) && Array.isArray(got)) {
        const missing = expected.filter((x) => !got.includes(x));
        const extra = got.filter((x) => !expected.includes(x));
        const dups = got.filter((x, i) => got.indexOf(x) !== i);
        const info = (cid: string) => `${cid}:${spy.history(1n << 60n, cid)}:inIFA=${ctx?.inFlightArchives.includes(cid)}`;
        found.push({ seed, step, where, kind, query, E, inFlight, expected: { missing: missing.map(info), n: expected.length }, got: { extra: extra.map(info), dups, n: got.length, orderOnly: !missing.length && !extra.length && !dups.length }, ctx: { blind: ctx?.blind } });
      } else found.push({ seed, step, where, kind, query, E, inFlight, expected, got, ctx });
    }
  };

  /** Reads issued synchronously now; each computed at call, its expectation read right after. */
  function readBurst(where: string) {
    const s = store;
    const n = 1 + Math.floor(rnd() * 4);
    const E = internals(s).durableEnd;
    const inFlight = internals(s).inFlight;
    const ifa = (s as unknown as { inFlightArchives: { byTemplate: Map<string, Map<string, unknown>> } }).inFlightArchives.byTemplate;
    const ctx = { blind: internals(s).blind, inFlightArchives: [...ifa.values()].flatMap((m) => [...m.keys()]) };
    if (inFlight > 0 && spy.maxOffset() > E) stats.windowReads++;
    if (internals(s).blind > 0) stats.blindHandovers++;
    if ((s as unknown as { inFlightArchives: { byTemplate: Map<string, unknown> } }).inFlightArchives.byTemplate.size > 0) stats.inFlightArchiveReads++;
    if (where === "listener") stats.listenerReads++;
    for (let i = 0; i < n; i++) {
      stats.reads++;
      const r = rnd();
      if (r < 0.55) {
        const q = randomQuery();
        const res = s.activeContracts(q);
        const expected = spy.acs(E, q);
        void res.then((rows) => compare(where, "activeContracts", q, E, inFlight, expected, rows.map((c) => c.contractId), ctx));
      } else {
        const cid = chance(0.8) && known.length ? known[Math.max(0, known.length - 1 - Math.floor(rnd() * Math.min(known.length, 60)))] : pick(known.length ? known : ["none"]);
        if (r < 0.62) {
          // A transaction by offset: there only once answered (the store's end), whatever the file holds.
          const at = 1n + BigInt(Math.floor(rnd() * Number(spy.maxOffset() + 1n)));
          const res = s.transactionByOffset(at);
          const expected = at <= E && spy.hasTransaction(at) ? `tx@${at}` : "none";
          void res.then((tx) => compare(where, "transactionByOffset", `${at}`, E, inFlight, expected, tx ? `tx@${tx.offset}` : "none"));
        } else if (r < 0.8) {
          const res = s.activeContract(cid);
          const h = spy.history(E, cid);
          const expected = h.startsWith("active") ? h : "none";
          void res.then((c) => compare(where, "activeContract", cid, E, inFlight, expected, c ? `active@${c.createdOffset}` : "none"));
        } else {
          const res = s.contractHistory(cid);
          const expected = spy.history(E, cid);
          void res.then((h) => compare(where, "contractHistory", cid, E, inFlight, expected, !h ? "none" : h.archivedOffset !== undefined ? `archived@${h.archivedOffset}` : `active@${h.contract.createdOffset}`));
        }
      }
    }
  }

  const attachListener = () => {
    if (listener) store.onLedgerEnd(() => chance(0.5) && readBurst("listener"));
  };
  attachListener();

  if (bulk > 0) {
    // Many contracts: the hot cache (4096) evicts; later reads and archives go to the file.
    for (let done = 0; done < bulk; done += 500) {
      const creates = Array.from({ length: 500 }, (_, i) => newContract(i)).map((c, i) => ({ ...c, nodeId: i }));
      const dedupIds = new Set<string>();
      const uniq = creates.filter((c) => !dedupIds.has(c.contractId) && dedupIds.add(c.contractId) && !known.includes(c.contractId) && !(c.keyHash));
      for (const c of uniq) known.push(c.contractId);
      for (const c of uniq) activeGuess.add(c.contractId);
      await store.commit(txCommit({ creates: uniq }));
    }
  }

  let lockDb: Database.Database | undefined = locker && mode === "file" ? new Database(file) : undefined;
  for (step = 0; step < steps; step++) {
    const r = rnd();
    // Submit some commits this turn.
    const k = Math.floor(rnd() * 4);
    for (let i = 0; i < k; i++) submit();
    if (r < 0.35) {
      // Hand over now; maybe more batches after a pause; then hold the loop until the writer is ahead.
      internals(store).flush();
      if (lockDb && chance(0.3)) {
        lockDb.exec("BEGIN IMMEDIATE");
        const until = performance.now() + rnd() * 3;
        while (performance.now() < until);
        for (let i = 0; i < 1 + Math.floor(rnd() * 2); i++) submit();
        internals(store).flush();
        lockDb.exec("ROLLBACK");
      } else if (chance(0.5)) {
        const until = performance.now() + rnd() * 1.5;
        while (performance.now() < until);
        submit();
        internals(store).flush();
      }
      if (internals(store).inFlight > 0) spy.spinUntilAhead(internals(store).durableEnd, 30);
      readBurst("window");
    } else if (r < 0.55) {
      readBurst("now");
      await turn();
    } else if (r < 0.75 && pending.size) {
      await Promise.race([...pending]);
      readBurst("after-answer");
    } else if (r < 0.995) {
      await turn();
      if (chance(0.5)) readBurst("turn");
    } else {
      // Reopen on the same file (memory: skipped).
      await Promise.allSettled([...pending]);
      if (mode === "file") {
        lockDb?.close();
        spy.close();
        await store.close();
        store = new SqliteStore({ file });
        spy = new Reconstruction(file, store);
        lockDb = locker ? new Database(file) : undefined;
        inFlightCreated = [];
        activeGuess.clear();
        for (const id of spy.acs(internals(store).durableEnd, {})) activeGuess.add(id);
        attachListener();
        stats.reopens++;
        readBurst("reopened");
      }
    }
    if (pending.size > 60) await Promise.allSettled([...pending]);
  }
  await Promise.allSettled([...pending]);
  readBurst("end");
  await turn();
  await Promise.allSettled([...pending]);
  {
    const i = store as unknown as { inFlight: number; blind: number; inFlightArchives: { byTemplate: Map<string, unknown>; unknown: Map<string, number> }; byPartyTemplate: { held: { size: number } } };
    const left = i.inFlightArchives.byTemplate.size + i.inFlightArchives.unknown.size;
    if (i.inFlight === 0 && (left !== 0 || i.blind !== 0 || i.byPartyTemplate.held.size !== 0)) {
      found.push({ seed, step, where: "end", kind: "leak", query: null, E: internals(store).durableEnd, inFlight: i.inFlight, expected: 0, got: { inFlightArchives: left, blind: i.blind, held: i.byPartyTemplate.held.size } });
    }
  }
  lockDb?.close();
  spy.close();
  await store.close();
}

async function run(defaults: { seeds: string; locker: boolean; listener: boolean }): Promise<void> {
  const env = process.env;
  const seeds = (env.DURABLE_SEEDS ?? defaults.seeds).split(",").map(Number);
  const steps = Number(env.DURABLE_STEPS ?? 300);
  const mode = (env.DURABLE_STORE ?? "file") as "file" | "memory";
  const bulk = Number(env.DURABLE_BULK ?? 0);
  const locker = env.DURABLE_LOCKER ? env.DURABLE_LOCKER === "1" : defaults.locker;
  const listener = env.DURABLE_LISTENER ? env.DURABLE_LISTENER === "1" : defaults.listener;
  const found: Discrepancy[] = [];
  const stats: Stats = { reads: 0, windowReads: 0, listenerReads: 0, commits: 0, committed: 0, rejected: 0, failed: 0, reopens: 0, blindHandovers: 0, inFlightArchiveReads: 0 };
  for (const seed of seeds) await runSeed(seed, steps, mode, bulk, locker, listener, stats, found);
  const bigintSafe = (_k: string, v: unknown) => (typeof v === "bigint" ? `${v}n` : v);
  // Enough reads in the window between a batch's commit and its answer for the run to mean something.
  expect(stats.windowReads).toBeGreaterThan(50);
  // The first of each kind, legibly, if any.
  const shown = new Map<string, Discrepancy>();
  for (const d of found) if (!shown.has(`${d.where}/${d.kind}`)) shown.set(`${d.where}/${d.kind}`, d);
  expect(JSON.parse(JSON.stringify([...shown.values()], bigintSafe))).toEqual([]);
}

describe("reads of the current state equal the ACS at the durable end, at random", () => {
  it("commits and reads interleaved", () => run({ seeds: "1,2,3", locker: false, listener: false }), 120_000);
  it("with batches written alone (the write lock held now and then) and reads in ledger-end listeners", () => run({ seeds: "11,12", locker: true, listener: true }), 120_000);
});
