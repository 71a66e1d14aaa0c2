/**
 * The store conformance suite: the documented semantics of the Store port (src/ledger/store-port.ts),
 * asserted on values, run unchanged against every adapter (sqlite.test.ts, mongodb.test.ts).
 *
 * Requests are built by hand (fake contracts, transactions and completions) so that the suite
 * tests the store alone, not the interpreter.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type {
  ContractRecord,
  CreateNodeRecord,
  ExerciseNodeRecord,
  PartyRecord,
  StatusRecord,
  UserRecord,
  UserRight,
} from "../../src/ledger/records.js";
import { rightKey } from "../../src/ledger/records.js";
import type {
  CommitRequest,
  CommitResult,
  Conflict,
  Deduplication,
  RejectionCommit,
  Store,
  TransactionCommit,
} from "../../src/ledger/store-port.js";

/** Opens a store on the same data as `closed` (already closed by the suite). */
export type Reopen = (closed: Store) => Promise<Store>;

// ---------------------------------------------------------------------------------------------
// Builders

const ALICE = "alice::1220aa";
const BOB = "bob::1220bb";
const CAROL = "carol::1220cc";
const IOU = "pkg1:Demo.Iou:Iou";
const KEYED = "pkg1:Demo.Keyed:Keyed";
const USER = "user-1";

let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

type NewContract = Omit<ContractRecord, "createdOffset">;

interface ContractOptions {
  readonly template?: string;
  readonly signatories?: readonly string[];
  readonly observers?: readonly string[];
  readonly keyHash?: string;
  readonly nodeId?: number;
  readonly updateId?: string;
  readonly amount?: string;
}

function contract(options: ContractOptions = {}): NewContract {
  const contractId = unique("00cid");
  const signatories = options.signatories ?? [ALICE];
  return {
    contractId,
    templateId: options.template ?? (options.keyHash ? KEYED : IOU),
    packageName: "demo",
    // A bigint inside a payload must survive the store (codec round trip).
    payload: { owner: signatories[0], amount: options.amount ?? "10.0000000000", count: 123456789012345678901234567890n },
    signatories,
    observers: options.observers ?? [],
    ...(options.keyHash !== undefined ? { key: { owner: signatories[0], label: options.keyHash }, keyHash: options.keyHash } : {}),
    createdAt: 1_700_000_000_000_000n,
    createUpdateId: options.updateId ?? "",
    nodeId: options.nodeId ?? 0,
  };
}

const okStatus = (): StatusRecord => ({ code: 0, message: "", errorCode: "", category: 0, context: {}, resources: [], correlationId: "corr" });

/** The status the suite's onConflict writes: the conflict is recoverable from it. */
function conflictStatus(conflict: Conflict): StatusRecord {
  const detail =
    conflict.kind === "inactive"
      ? conflict.contractIds.join(",")
      : conflict.kind === "duplicateKey"
        ? conflict.keyHash
        : conflict.existingOffset.toString();
  return {
    code: 10,
    message: `conflict ${conflict.kind}`,
    errorCode: `CONFLICT_${conflict.kind.toUpperCase()}`,
    category: 9,
    context: { detail },
    resources: [],
    correlationId: "corr",
  };
}

interface TxOptions {
  readonly commandId?: string;
  /** Contracts read but not consumed (besides the archives, which are inputs too). */
  readonly fetches?: readonly string[];
  readonly archives?: readonly string[];
  readonly creates?: readonly NewContract[];
  readonly dedup?: Deduplication;
  readonly recordTime?: bigint;
  /** Fixed by the test (an externally signed transaction's is fixed by what its parties signed). */
  readonly updateId?: string;
}

/** A transaction commit whose nodes exercise (consume) the archives and create the creates. */
function txCommit(options: TxOptions = {}): TransactionCommit & { readonly updateId: string } {
  const updateId = options.updateId ?? unique("1220upd");
  const commandId = options.commandId ?? unique("cmd");
  const recordTime = options.recordTime ?? 1_000n;
  const archives = options.archives ?? [];
  const creates = (options.creates ?? []).map((c) => ({ ...c, createUpdateId: updateId }));
  let nodeId = 0;
  const nodes = [
    ...archives.map(
      (cid): ExerciseNodeRecord => ({
        kind: "exercise",
        nodeId: nodeId++,
        contractId: cid,
        templateId: IOU,
        packageName: "demo",
        choice: "Archive",
        argument: {},
        result: {},
        actingParties: [ALICE],
        consuming: true,
        lastDescendantNodeId: nodeId - 1,
        witnesses: [ALICE],
        stakeholders: [ALICE],
        implementedInterfaces: [],
      }),
    ),
    ...creates.map(
      (c): CreateNodeRecord => ({
        kind: "create",
        nodeId: c.nodeId,
        contractId: c.contractId,
        templateId: c.templateId,
        packageName: c.packageName,
        payload: c.payload,
        signatories: c.signatories,
        observers: c.observers,
        witnesses: [...c.signatories, ...c.observers],
        ...(c.key !== undefined ? { key: c.key } : {}),
      }),
    ),
  ];
  const base = {
    commandId,
    userId: USER,
    actAs: [ALICE],
    submissionId: unique("sub"),
    deduplication: { kind: "none" } as const,
    recordTime,
  };
  return {
    kind: "transaction",
    updateId,
    ...(options.dedup ? { dedup: options.dedup } : {}),
    inputs: [...(options.fetches ?? []), ...archives],
    archives,
    creates,
    transaction: {
      updateId,
      commandId,
      workflowId: "wf",
      submitters: [ALICE],
      effectiveAt: recordTime,
      recordTime,
      nodes,
    },
    completion: { ...base, updateId, status: okStatus() },
    onConflict: (conflict) => ({ ...base, status: conflictStatus(conflict) }),
  };
}

function rejection(commandId = unique("rej"), recordTime = 1_000n): RejectionCommit {
  return {
    kind: "rejection",
    completion: {
      commandId,
      userId: USER,
      actAs: [ALICE],
      submissionId: unique("sub"),
      deduplication: { kind: "offset", offset: 7n },
      recordTime,
      status: { ...okStatus(), code: 3, message: "INVALID_ARGUMENT(8,corr): bad", errorCode: "INVALID_ARGUMENT", category: 8, context: { field: "x" }, resources: [["CONTRACT_ID", "00x"]], definiteAnswer: false },
    },
  };
}

/** What the store must return for a contract created by `request` at `offset`. */
const stored = (c: NewContract, offset: bigint): ContractRecord => ({ ...c, createdOffset: offset });

const commandIdOf = (r: CommitRequest) => (r.kind === "transaction" ? r.transaction.commandId : r.completion.commandId);

function party(id: string, annotation = "a"): PartyRecord {
  return { party: id, isLocal: true, localMetadata: { resourceVersion: "0", annotations: { note: annotation } }, identityProviderId: "" };
}

function user(id: string, rights: UserRight[] = [], primaryParty = ALICE): UserRecord {
  return { id, primaryParty, isDeactivated: false, metadata: { resourceVersion: "0", annotations: {} }, identityProviderId: "", rights };
}

const sortRights = (rights: readonly UserRight[] | undefined) => rights && [...rights].sort((a, b) => rightKey(a).localeCompare(rightKey(b)));

const offsets = (rows: readonly { offset: bigint }[]) => rows.map((r) => r.offset);
const range = (from: bigint, to: bigint) => {
  const out: bigint[] = [];
  for (let o = from; o <= to; o++) out.push(o);
  return out;
};
const ids = (rows: readonly { contractId: string }[]) => rows.map((r) => r.contractId);

// ---------------------------------------------------------------------------------------------
// The suite

export function describeStoreConformance(name: string, open: () => Promise<Store>, reopen?: Reopen): void {
  describe(`Store conformance: ${name}`, () => {
    const opened: Store[] = [];
    const fresh = async () => {
      const store = await open();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
    });

    it("starts empty", async () => {
      const store = await fresh();
      expect(await store.ledgerEnd()).toBe(0n);
      expect(await store.transactions(0n, 100n, 100)).toEqual([]);
      expect(await store.completions(0n, 100n, 100)).toEqual([]);
      expect(await store.activeContracts({})).toEqual([]);
      expect(await store.acceptedCommand("nope")).toBeUndefined();
      expect(await store.transactionByOffset(1n)).toBeUndefined();
      expect(await store.transactionById("nope")).toBeUndefined();
    });

    describe("atomic commit", () => {
      it("lands archives, creates, transaction and completion together", async () => {
        const store = await fresh();
        const a = contract();
        const b = contract({ signatories: [BOB], observers: [ALICE] });
        const t1 = txCommit({ creates: [a, b].map((c, i) => ({ ...c, nodeId: i })) });
        expect(await store.commit(t1)).toEqual({ kind: "committed", offset: 1n });

        const c = contract({ nodeId: 1 });
        const d = contract({ nodeId: 2 });
        const t2 = txCommit({ archives: [a.contractId], creates: [c, d], recordTime: 2_000n });
        expect(await store.commit(t2)).toEqual({ kind: "committed", offset: 2n });

        expect(await store.ledgerEnd()).toBe(2n);
        expect(await store.activeContract(a.contractId)).toBeUndefined();
        expect(await store.activeContract(b.contractId)).toEqual(stored({ ...b, nodeId: 1, createUpdateId: t1.updateId }, 1n));
        expect(await store.activeContract(c.contractId)).toEqual(stored({ ...c, createUpdateId: t2.updateId }, 2n));
        expect(ids(await store.activeContracts({}))).toEqual([b.contractId, c.contractId, d.contractId]);
        // The history keeps the archived contract, with the offset that archived it.
        expect(await store.contractHistory(a.contractId)).toEqual({ contract: stored({ ...a, nodeId: 0, createUpdateId: t1.updateId }, 1n), archivedOffset: 2n });
        expect(await store.contractHistory(c.contractId)).toEqual({ contract: stored({ ...c, createUpdateId: t2.updateId }, 2n) });
        expect(await store.contractHistory("00" + "ee".repeat(32))).toBeUndefined();

        const txs = await store.transactions(0n, 2n, 10);
        expect(txs).toEqual([
          { ...t1.transaction, offset: 1n },
          { ...t2.transaction, offset: 2n },
        ]);
        expect(await store.transactionById(t2.updateId)).toEqual({ ...t2.transaction, offset: 2n });
        expect(await store.transactionByOffset(1n)).toEqual({ ...t1.transaction, offset: 1n });
        expect(await store.completions(0n, 2n, 10)).toEqual([
          { ...t1.completion, offset: 1n },
          { ...t2.completion, offset: 2n },
        ]);
      });

      it("on conflict writes nothing but the onConflict completion at its own offset", async () => {
        const store = await fresh();
        const a = contract();
        const b = contract({ nodeId: 1 });
        const k = contract({ keyHash: unique("key"), nodeId: 2 });
        await store.commit(txCommit({ creates: [a, b, k] }));
        await store.commit(txCommit({ archives: [a.contractId] }));
        const before = await store.activeContracts({});
        expect(ids(before)).toEqual([b.contractId, k.contractId]);

        // Inactive input: b would be archived and e created, were it not for a.
        const e = contract();
        const t3 = txCommit({ archives: [b.contractId, a.contractId], creates: [e], commandId: "inactive-cmd" });
        expect(await store.commit(t3)).toEqual({ kind: "rejected", offset: 3n, conflict: { kind: "inactive", contractIds: [a.contractId] } });

        // A non-consumed input (fetch) that is gone conflicts as well.
        const t4 = txCommit({ fetches: [a.contractId], creates: [contract()] });
        expect(await store.commit(t4)).toEqual({ kind: "rejected", offset: 4n, conflict: { kind: "inactive", contractIds: [a.contractId] } });

        // Duplicate key: b would be archived, but the create of the taken key fails the whole request.
        const dup = contract({ keyHash: k.keyHash });
        const t5 = txCommit({ archives: [b.contractId], creates: [contract(), dup] });
        expect(await store.commit(t5)).toEqual({ kind: "rejected", offset: 5n, conflict: { kind: "duplicateKey", keyHash: k.keyHash } });

        expect(await store.ledgerEnd()).toBe(5n);
        expect(await store.activeContracts({})).toEqual(before);
        expect(await store.activeContract(b.contractId)).toEqual(before[0]);
        expect(await store.activeContract(e.contractId)).toBeUndefined();
        expect(await store.activeContract(dup.contractId)).toBeUndefined();
        expect(await store.activeContractByKey(k.keyHash!)).toEqual(before[1]);
        for (const t of [t3, t4, t5]) expect(await store.transactionById(t.updateId)).toBeUndefined();
        for (const o of [3n, 4n, 5n]) expect(await store.transactionByOffset(o)).toBeUndefined();
        expect(offsets(await store.transactions(0n, 5n, 10))).toEqual([1n, 2n]);

        const rejected = await store.completions(2n, 5n, 10);
        expect(rejected).toEqual([
          { ...t3.onConflict({ kind: "inactive", contractIds: [a.contractId] }), offset: 3n },
          { ...t4.onConflict({ kind: "inactive", contractIds: [a.contractId] }), offset: 4n },
          { ...t5.onConflict({ kind: "duplicateKey", keyHash: k.keyHash! }), offset: 5n },
        ]);
        expect(rejected[0].commandId).toBe("inactive-cmd");
        expect(rejected.map((c) => c.updateId)).toEqual([undefined, undefined, undefined]);
        expect(rejected.map((c) => c.status?.errorCode)).toEqual(["CONFLICT_INACTIVE", "CONFLICT_INACTIVE", "CONFLICT_DUPLICATEKEY"]);
      });

      it("a rejection commit writes only its completion", async () => {
        const store = await fresh();
        const r = rejection("bad-cmd");
        expect(await store.commit(r)).toEqual({ kind: "rejected", offset: 1n });
        expect(await store.completions(0n, 1n, 10)).toEqual([{ ...r.completion, offset: 1n }]);
        expect(await store.transactions(0n, 1n, 10)).toEqual([]);
        expect(await store.acceptedCommand("bad-cmd")).toBeUndefined();
        expect(await store.ledgerEnd()).toBe(1n);
      });

      it("a contract archived in a batch is inactive for the requests after it in the same batch", async () => {
        const store = await fresh();
        const a = contract();
        await store.commit(txCommit({ creates: [a] }));
        // Issued in the same turn: adapters group these into one batch.
        const spend1 = txCommit({ archives: [a.contractId], creates: [contract()] });
        const spend2 = txCommit({ archives: [a.contractId], creates: [contract()] });
        const [r1, r2] = await Promise.all([store.commit(spend1), store.commit(spend2)]);
        expect(r1).toEqual({ kind: "committed", offset: 2n });
        expect(r2).toEqual({ kind: "rejected", offset: 3n, conflict: { kind: "inactive", contractIds: [a.contractId] } });
        expect(ids(await store.activeContracts({}))).toEqual([spend1.creates[0].contractId]);
      });
    });

    describe("offsets", () => {
      it("200 concurrent commits get exactly the offsets 1..200, in completions and transactions alike", async () => {
        const store = await fresh();
        const N = 200;
        const requests: CommitRequest[] = [];
        for (let i = 0; i < N; i++) {
          if (i % 5 === 0) requests.push(rejection(`cmd-${i}`));
          // Conflicting: an input nobody created.
          else if (i % 5 === 1) requests.push(txCommit({ commandId: `cmd-${i}`, archives: [`00missing-${i}`], creates: [contract()] }));
          else requests.push(txCommit({ commandId: `cmd-${i}`, creates: [contract()] }));
        }
        // Submitted over several turns of the event loop, so several group-commit batches overlap.
        const pending: Promise<CommitResult>[] = [];
        for (const [i, r] of requests.entries()) {
          pending.push(store.commit(r));
          if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
        }
        const results = await Promise.all(pending);

        expect(results.map((r) => r.offset).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))).toEqual(range(1n, BigInt(N)));
        expect(await store.ledgerEnd()).toBe(BigInt(N));
        for (const [i, r] of results.entries()) {
          expect(r.kind).toBe(i % 5 <= 1 ? "rejected" : "committed");
        }

        const completions = await store.completions(0n, BigInt(N), 10_000);
        expect(offsets(completions)).toEqual(range(1n, BigInt(N)));
        // Each completion sits at the offset its commit was answered with.
        const commandAt = new Map(results.map((r, i) => [r.offset, commandIdOf(requests[i])]));
        for (const c of completions) expect(c.commandId).toBe(commandAt.get(c.offset));

        const committed = results
          .map((r, i) => ({ r, req: requests[i] }))
          .filter((x) => x.r.kind === "committed")
          .sort((x, y) => (x.r.offset < y.r.offset ? -1 : 1));
        const txs = await store.transactions(0n, BigInt(N), 10_000);
        expect(offsets(txs)).toEqual(committed.map((x) => x.r.offset));
        expect(txs.map((t) => t.commandId)).toEqual(committed.map((x) => commandIdOf(x.req)));
        expect((await store.activeContracts({})).length).toBe(committed.length);
      });

      it("concurrent double spend: exactly one of 50 commits archiving a contract wins", async () => {
        const store = await fresh();
        const coin = contract();
        await store.commit(txCommit({ creates: [coin] }));
        const spends = Array.from({ length: 50 }, (_, i) =>
          txCommit({ commandId: `spend-${i}`, archives: [coin.contractId], creates: [contract({ signatories: [BOB] })] }),
        );
        const results = await Promise.all(spends.map((s) => store.commit(s)));

        const winners = results.flatMap((r, i) => (r.kind === "committed" ? [i] : []));
        expect(winners).toHaveLength(1);
        const losers = results.filter((r) => r.kind === "rejected");
        expect(losers).toHaveLength(49);
        for (const r of losers) expect(r).toMatchObject({ kind: "rejected", conflict: { kind: "inactive", contractIds: [coin.contractId] } });
        expect(results.map((r) => r.offset).sort((x, y) => (x < y ? -1 : 1))).toEqual(range(2n, 51n));

        const winner = spends[winners[0]];
        expect(ids(await store.activeContracts({}))).toEqual([winner.creates[0].contractId]);
        expect(await store.activeContracts({ parties: [ALICE] })).toEqual([]);
        expect(offsets(await store.transactions(0n, 51n, 100))).toEqual([1n, results[winners[0]].offset]);

        const completions = await store.completions(1n, 51n, 100);
        expect(completions).toHaveLength(50);
        for (const c of completions) {
          const i = results.findIndex((r) => r.offset === c.offset);
          expect(c.commandId).toBe(`spend-${i}`);
          if (i === winners[0]) {
            expect(c).toEqual({ ...winner.completion, offset: c.offset });
          } else {
            expect(c.updateId).toBeUndefined();
            expect(c.status).toEqual(conflictStatus({ kind: "inactive", contractIds: [coin.contractId] }));
          }
        }
      });
    });

    describe("contract keys", () => {
      it("two concurrent creates of one key: one commits, the other is rejected duplicateKey", async () => {
        const store = await fresh();
        const key = unique("key");
        const x = txCommit({ creates: [contract({ keyHash: key })] });
        const y = txCommit({ creates: [contract({ keyHash: key })] });
        const [rx, ry] = await Promise.all([store.commit(x), store.commit(y)]);
        const results = [rx, ry];
        expect(results.filter((r) => r.kind === "committed")).toHaveLength(1);
        const loser = results.find((r) => r.kind === "rejected");
        expect(loser).toMatchObject({ kind: "rejected", conflict: { kind: "duplicateKey", keyHash: key } });
        const winner = rx.kind === "committed" ? x : y;
        expect((await store.activeContractByKey(key))?.contractId).toBe(winner.creates[0].contractId);
        const loserCompletion = (await store.completions(loser!.offset - 1n, loser!.offset, 1))[0];
        expect(loserCompletion.status).toEqual(conflictStatus({ kind: "duplicateKey", keyHash: key }));
      });

      it("a key freed by an archive can be reused in the same request and afterwards", async () => {
        const store = await fresh();
        const key = unique("key");
        const first = contract({ keyHash: key });
        await store.commit(txCommit({ creates: [first] }));
        expect(await store.activeContractByKey(key)).toEqual(stored({ ...first, createUpdateId: expect.any(String) as unknown as string }, 1n));

        const second = contract({ keyHash: key });
        expect(await store.commit(txCommit({ archives: [first.contractId], creates: [second] }))).toEqual({ kind: "committed", offset: 2n });
        expect((await store.activeContractByKey(key))?.contractId).toBe(second.contractId);

        // Taken again: a plain create of it is rejected.
        expect(await store.commit(txCommit({ creates: [contract({ keyHash: key })] }))).toMatchObject({
          kind: "rejected",
          offset: 3n,
          conflict: { kind: "duplicateKey", keyHash: key },
        });

        await store.commit(txCommit({ archives: [second.contractId] }));
        expect(await store.activeContractByKey(key)).toBeUndefined();
        const third = contract({ keyHash: key });
        expect(await store.commit(txCommit({ creates: [third] }))).toEqual({ kind: "committed", offset: 5n });
        expect((await store.activeContractByKey(key))?.contractId).toBe(third.contractId);
        expect(await store.activeContractByKey(unique("other-key"))).toBeUndefined();
      });
    });

    describe("command deduplication", () => {
      it("rejects a duplicate inside the window, accepts outside it, and by offset", async () => {
        const store = await fresh();
        const changeKey = unique("change");
        const first = txCommit({ dedup: { changeKey, since: 0n }, recordTime: 1_000n, creates: [contract()] });
        expect(await store.commit(first)).toEqual({ kind: "committed", offset: 1n });
        expect(await store.acceptedCommand(changeKey)).toEqual({ offset: 1n, recordTime: 1_000n });

        // Window starting at or before the previous acceptance: duplicate.
        for (const since of [500n, 1_000n]) {
          const dup = txCommit({ dedup: { changeKey, since }, recordTime: 1_500n, creates: [contract()] });
          const r = await store.commit(dup);
          expect(r).toEqual({ kind: "rejected", offset: r.offset, conflict: { kind: "duplicateCommand", existingOffset: 1n } });
          expect(await store.activeContract(dup.creates[0].contractId)).toBeUndefined();
          const [c] = await store.completions(r.offset - 1n, r.offset, 1);
          expect(c.status).toEqual(conflictStatus({ kind: "duplicateCommand", existingOffset: 1n }));
        }
        expect(await store.ledgerEnd()).toBe(3n);
        // A rejection does not count as an acceptance.
        expect(await store.acceptedCommand(changeKey)).toEqual({ offset: 1n, recordTime: 1_000n });

        // Window starting after it: accepted, and now the last acceptance.
        const again = txCommit({ dedup: { changeKey, since: 1_001n }, recordTime: 2_000n, creates: [contract()] });
        expect(await store.commit(again)).toEqual({ kind: "committed", offset: 4n });
        expect(await store.acceptedCommand(changeKey)).toEqual({ offset: 4n, recordTime: 2_000n });

        // By offset: an acceptance after sinceOffset is a duplicate, one at or before it is not.
        const byOffsetDup = txCommit({ dedup: { changeKey, since: 0n, sinceOffset: 3n }, recordTime: 3_000n });
        expect(await store.commit(byOffsetDup)).toEqual({ kind: "rejected", offset: 5n, conflict: { kind: "duplicateCommand", existingOffset: 4n } });
        const byOffsetOk = txCommit({ dedup: { changeKey, since: 0n, sinceOffset: 4n }, recordTime: 3_000n });
        expect(await store.commit(byOffsetOk)).toEqual({ kind: "committed", offset: 6n });
        expect(await store.acceptedCommand(changeKey)).toEqual({ offset: 6n, recordTime: 3_000n });

        // Other change keys are independent.
        const other = txCommit({ dedup: { changeKey: unique("change"), since: 0n } });
        expect(await store.commit(other)).toEqual({ kind: "committed", offset: 7n });
        expect(offsets(await store.transactions(0n, 7n, 10))).toEqual([1n, 4n, 6n, 7n]);
      });

      it("a second transaction with an update id already committed is a duplicate of it, not a failed write", async () => {
        const store = await fresh();
        const updateId = unique("1220pinned");
        const first = txCommit({ updateId, creates: [contract()] });
        expect(await store.commit(first)).toEqual({ kind: "committed", offset: 1n });
        // Another user executing the same signed transaction: another change key, the same update id.
        const again = txCommit({ updateId, dedup: { changeKey: unique("change"), since: 0n }, creates: [contract()] });
        const r = await store.commit(again);
        expect(r).toEqual({ kind: "rejected", offset: 2n, conflict: { kind: "duplicateCommand", existingOffset: 1n } });
        expect(await store.activeContract(again.creates[0].contractId)).toBeUndefined();
        expect((await store.completions(1n, 2n, 1))[0].status).toEqual(conflictStatus({ kind: "duplicateCommand", existingOffset: 1n }));
      });

      it("two concurrent submissions of one change: one commits, the other is a duplicate of it", async () => {
        const store = await fresh();
        const changeKey = unique("change");
        const a = txCommit({ dedup: { changeKey, since: 0n }, creates: [contract()] });
        const b = txCommit({ dedup: { changeKey, since: 0n }, creates: [contract()] });
        const [ra, rb] = await Promise.all([store.commit(a), store.commit(b)]);
        const winner = ra.kind === "committed" ? ra : rb;
        const loser = ra.kind === "committed" ? rb : ra;
        expect(winner.kind).toBe("committed");
        expect(loser).toEqual({ kind: "rejected", offset: loser.offset, conflict: { kind: "duplicateCommand", existingOffset: winner.offset } });
        expect((await store.activeContracts({})).length).toBe(1);
        expect((await store.acceptedCommand(changeKey))?.offset).toBe(winner.offset);
      });
    });

    describe("streams", () => {
      it("resume exactly after any beginExclusive, bounded by endInclusive, in pages of any limit", async () => {
        const store = await fresh();
        const N = 12n;
        const committed: bigint[] = [];
        for (let i = 1n; i <= N; i++) {
          const r = await store.commit(i % 3n === 0n ? rejection() : txCommit({ creates: [contract()] }));
          expect(r.offset).toBe(i);
          if (r.kind === "committed") committed.push(r.offset);
        }
        expect(committed).toEqual([1n, 2n, 4n, 5n, 7n, 8n, 10n, 11n]);

        for (const begin of [0n, 1n, 2n, 3n, 6n, 10n, 11n, 12n]) {
          expect(offsets(await store.completions(begin, N, 100))).toEqual(range(begin + 1n, N));
          expect(offsets(await store.transactions(begin, N, 100))).toEqual(committed.filter((o) => o > begin));
        }
        expect(offsets(await store.completions(3n, 7n, 100))).toEqual([4n, 5n, 6n, 7n]);
        expect(offsets(await store.transactions(2n, 7n, 100))).toEqual([4n, 5n, 7n]);
        expect(offsets(await store.transactions(5n, 6n, 100))).toEqual([]);
        // An end past the ledger end just stops at what is there.
        expect(offsets(await store.completions(10n, 1_000n, 100))).toEqual([11n, 12n]);
        expect(offsets(await store.completions(0n, N, 5))).toEqual([1n, 2n, 3n, 4n, 5n]);
        expect(offsets(await store.transactions(0n, N, 3))).toEqual([1n, 2n, 4n]);
        expect(await store.completions(0n, N, 0)).toEqual([]);

        for (const limit of [1, 3, 5]) {
          const seenCompletions: bigint[] = [];
          for (let cursor = 0n; ; ) {
            const page = await store.completions(cursor, N, limit);
            expect(page.length).toBeLessThanOrEqual(limit);
            if (page.length === 0) break;
            seenCompletions.push(...offsets(page));
            cursor = page[page.length - 1].offset;
          }
          expect(seenCompletions).toEqual(range(1n, N));
          const seenTxs: bigint[] = [];
          for (let cursor = 0n; ; ) {
            const page = await store.transactions(cursor, N, limit);
            if (page.length === 0) break;
            seenTxs.push(...offsets(page));
            cursor = page[page.length - 1].offset;
          }
          expect(seenTxs).toEqual(committed);
        }
        // With maxBytes a page ends after the row that reaches it (one row for a byte, all for plenty).
        expect(offsets(await store.transactions(0n, N, 100, 1))).toEqual([1n]);
        expect(offsets(await store.transactions(3n, N, 100, 1))).toEqual([4n]);
        expect(offsets(await store.transactions(0n, N, 100, 1e9))).toEqual(committed);
        expect(offsets(await store.transactions(0n, N, 2, 1e9))).toEqual([1n, 2n]);
        expect(await store.transactions(0n, N, 0, 1)).toEqual([]);
        const bySize: bigint[] = [];
        for (let cursor = 0n; ; ) {
          const page = await store.transactions(cursor, N, 100, 1);
          if (page.length === 0) break;
          expect(page).toHaveLength(1);
          bySize.push(...offsets(page));
          cursor = page[0].offset;
        }
        expect(bySize).toEqual(committed);
        expect(await store.transactions(0n, N, 100, 1)).toEqual(await store.transactions(0n, 1n, 100));
        for (const o of committed) expect((await store.transactionByOffset(o))?.offset).toBe(o);
        expect(await store.transactionByOffset(3n)).toBeUndefined();
        expect(await store.transactionByOffset(N + 1n)).toBeUndefined();
      });

      it("read one user's completions, in offset order, bounded and paged as all of them are", async () => {
        const store = await fresh();
        const asUser = (r: CommitRequest, userId: string): CommitRequest =>
          r.kind === "rejection"
            ? { ...r, completion: { ...r.completion, userId } }
            : { ...r, completion: { ...r.completion, userId }, onConflict: (c) => ({ ...r.onConflict(c), userId }) };
        const users = ["user-a", "user-b", "user-a", "user-c", "user-a", "user-b", "user-a"];
        for (const [i, u] of users.entries()) await store.commit(asUser(i % 2 === 0 ? txCommit({ creates: [contract()] }) : rejection(), u));
        const offsetsOf = (u: string) => users.flatMap((x, i) => (x === u ? [BigInt(i + 1)] : []));
        expect(offsets(await store.completions(0n, 7n, 100, "user-a"))).toEqual(offsetsOf("user-a"));
        expect((await store.completions(0n, 7n, 100, "user-b")).map((c) => c.userId)).toEqual(["user-b", "user-b"]);
        expect(offsets(await store.completions(1n, 5n, 100, "user-a"))).toEqual([3n, 5n]);
        expect(offsets(await store.completions(0n, 7n, 2, "user-a"))).toEqual([1n, 3n]);
        expect(await store.completions(0n, 7n, 100, "nobody")).toEqual([]);
        // Without a user, everyone's.
        expect(offsets(await store.completions(0n, 7n, 100))).toEqual(range(1n, 7n));
      });

      it("onLedgerEnd tells listeners each new end once the commits are readable; unsubscribing stops it", async () => {
        const store = await fresh();
        const seen: bigint[] = [];
        const readable: Promise<boolean>[] = [];
        const off = store.onLedgerEnd((end) => {
          seen.push(end);
          readable.push(store.completions(0n, end, 10_000).then((rows) => rows.length === Number(end)));
        });
        await store.commit(txCommit({ creates: [contract()] }));
        await vi.waitFor(() => expect(seen.at(-1)).toBe(1n));
        await Promise.all([store.commit(rejection()), store.commit(txCommit()), store.commit(txCommit())]);
        await vi.waitFor(() => expect(seen.at(-1)).toBe(4n));
        for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
        expect(await Promise.all(readable)).toEqual(seen.map(() => true));

        off();
        const other: bigint[] = [];
        const offOther = store.onLedgerEnd((end) => other.push(end));
        await store.commit(txCommit());
        await vi.waitFor(() => expect(other.at(-1)).toBe(5n));
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(seen.at(-1)).toBe(4n);
        offOther();
      });
    });

    describe("active contracts", () => {
      it("filters by stakeholder and template, in creation order (offset, then node id)", async () => {
        const store = await fresh();
        const a = contract({ signatories: [ALICE], nodeId: 5 });
        const b = contract({ signatories: [BOB], observers: [ALICE], nodeId: 2, template: KEYED });
        const c = contract({ signatories: [CAROL], nodeId: 0 });
        await store.commit(txCommit({ creates: [a, b, c] }));
        const d = contract({ signatories: [BOB], nodeId: 0 });
        await store.commit(txCommit({ creates: [d] }));

        expect(ids(await store.activeContracts({}))).toEqual([c.contractId, b.contractId, a.contractId, d.contractId]);
        expect(ids(await store.activeContracts({ parties: [ALICE] }))).toEqual([b.contractId, a.contractId]);
        expect(ids(await store.activeContracts({ parties: [BOB] }))).toEqual([b.contractId, d.contractId]);
        expect(ids(await store.activeContracts({ parties: [ALICE, BOB] }))).toEqual([b.contractId, a.contractId, d.contractId]);
        expect(ids(await store.activeContracts({ parties: [CAROL, ALICE] }))).toEqual([c.contractId, b.contractId, a.contractId]);
        expect(ids(await store.activeContracts({ templateIds: [IOU] }))).toEqual([c.contractId, a.contractId, d.contractId]);
        expect(ids(await store.activeContracts({ templateIds: [KEYED, IOU] }))).toEqual([c.contractId, b.contractId, a.contractId, d.contractId]);
        expect(ids(await store.activeContracts({ parties: [BOB], templateIds: [IOU] }))).toEqual([d.contractId]);
        expect(ids(await store.activeContracts({ parties: ["nobody::1220"] }))).toEqual([]);
        expect(ids(await store.activeContracts({ templateIds: ["pkg1:No:Such"] }))).toEqual([]);

        await store.commit(txCommit({ archives: [b.contractId] }));
        expect(ids(await store.activeContracts({ parties: [ALICE] }))).toEqual([a.contractId]);
        expect(await store.activeContracts({ parties: [ALICE] })).toEqual([stored({ ...a, createUpdateId: expect.any(String) as unknown as string }, 1n)]);
      });

      it("one party's contracts of one template are the same whichever of the two has more contracts", async () => {
        const store = await fresh();
        // ALICE signs many IOUs (most archived again) and few KEYED; BOB observes a few of each.
        const ious = Array.from({ length: 40 }, (_, i) => contract({ signatories: [ALICE], observers: i % 8 === 0 ? [BOB] : [], nodeId: i }));
        await store.commit(txCommit({ creates: ious }));
        await store.commit(txCommit({ archives: ious.slice(0, 30).map((c) => c.contractId) }));
        const keyed = [contract({ signatories: [ALICE], template: KEYED }), contract({ signatories: [CAROL], observers: [ALICE, BOB], template: KEYED })];
        await store.commit(txCommit({ creates: keyed }));
        const live = ious.slice(30).map((c) => c.contractId);
        expect(ids(await store.activeContracts({ parties: [ALICE], templateIds: [IOU] }))).toEqual(live);
        expect(ids(await store.activeContracts({ parties: [ALICE], templateIds: [KEYED] }))).toEqual(keyed.map((c) => c.contractId));
        expect(ids(await store.activeContracts({ parties: [BOB], templateIds: [IOU] }))).toEqual([ious[32].contractId]);
        expect(ids(await store.activeContracts({ parties: [BOB], templateIds: [KEYED] }))).toEqual([keyed[1].contractId]);
        expect(ids(await store.activeContracts({ parties: [CAROL], templateIds: [IOU] }))).toEqual([]);
        expect(ids(await store.activeContracts({ parties: [ALICE, BOB], templateIds: [IOU] }))).toEqual(live);
      });
    });

      it("reads a party's contracts of a template again after each write that changes them, and only then", async () => {
        const store = await fresh();
        const read = async (party: string) => ids(await store.activeContracts({ parties: [party], templateIds: [IOU] }));
        expect(await read(BOB)).toEqual([]);
        const a = contract({ signatories: [ALICE], observers: [BOB] });
        await store.commit(txCommit({ creates: [a] }));
        expect(await read(BOB)).toEqual([a.contractId]);
        expect(await read(ALICE)).toEqual([a.contractId]);
        // A write of another template or other parties leaves the answer as it was.
        await store.commit(txCommit({ creates: [contract({ signatories: [CAROL] }), contract({ signatories: [BOB], template: KEYED })] }));
        expect(await read(BOB)).toEqual([a.contractId]);
        const b = contract({ signatories: [CAROL], observers: [BOB] });
        await store.commit(txCommit({ archives: [a.contractId], creates: [b] }));
        expect(await read(BOB)).toEqual([b.contractId]);
        expect(await read(ALICE)).toEqual([]);
        await store.commit(txCommit({ archives: [b.contractId] }));
        expect(await read(BOB)).toEqual([]);
        expect(await store.activeContracts({ parties: [BOB], templateIds: [IOU], activeAtOffset: 3n })).toEqual([stored({ ...b, createUpdateId: expect.any(String) as unknown as string }, 3n)]);
      });

    describe("parties, users, settings", () => {
      it("parties: add once, look up, page in id order", async () => {
        const store = await fresh();
        const names = ["p-d::1220", "p-a::1220", "p-e::1220", "p-b::1220", "p-c::1220"];
        for (const n of names) expect(await store.addParty(party(n))).toBe(true);
        expect(await store.addParty(party("p-a::1220", "changed"))).toBe(false);
        expect(await store.party("p-a::1220")).toEqual(party("p-a::1220"));
        expect(await store.party("p-z::1220")).toBeUndefined();

        const sorted = [...names].sort();
        expect((await store.parties("", 100)).map((p) => p.party)).toEqual(sorted);
        const paged: string[] = [];
        for (let token = ""; ; ) {
          const page = await store.parties(token, 2);
          expect(page.length).toBeLessThanOrEqual(2);
          if (page.length === 0) break;
          paged.push(...page.map((p) => p.party));
          token = page[page.length - 1].party;
        }
        expect(paged).toEqual(sorted);
        expect((await store.parties("p-b::1220", 2)).map((p) => p.party)).toEqual(["p-c::1220", "p-d::1220"]);
      });

      it("parties: updateParty stores what the change returns, atomically; lookups and pages see it", async () => {
        const store = await fresh();
        expect(await store.addParty(party("p-a::1220"))).toBe(true);
        expect(await store.party("p-a::1220")).toEqual(party("p-a::1220")); // cached by a lookup first
        const relabelled = await store.updateParty("p-a::1220", (p) => ({ ...p, localMetadata: { resourceVersion: "1", annotations: { note: "b" } } }));
        expect(relabelled).toEqual({ ...party("p-a::1220"), localMetadata: { resourceVersion: "1", annotations: { note: "b" } } });
        expect(await store.party("p-a::1220")).toEqual(relabelled);
        expect(await store.parties("", 10)).toEqual([relabelled]);
        expect(await store.updateParty("p-z::1220", (p) => p)).toBeUndefined();
        expect(await store.party("p-z::1220")).toBeUndefined();
        await expect(store.updateParty("p-a::1220", () => { throw new Error("stale"); })).rejects.toThrow("stale");
        expect(await store.party("p-a::1220")).toEqual(relabelled);
        // Concurrent read-modify-writes each see the other's result: no update is lost.
        const bump = (p: PartyRecord): PartyRecord => ({ ...p, localMetadata: { ...p.localMetadata, annotations: { n: String(Number(p.localMetadata.annotations.n ?? "0") + 1) } } });
        await Promise.all(Array.from({ length: 10 }, () => store.updateParty("p-a::1220", bump)));
        expect((await store.party("p-a::1220"))?.localMetadata.annotations).toEqual({ n: "10" });
      });

      it("users: add once, page, delete, grant and revoke rights", async () => {
        const store = await fresh();
        expect(await store.addUser(user("u2", [{ kind: "ParticipantAdmin" }]))).toBe(true);
        expect(await store.addUser(user("u1"))).toBe(true);
        expect(await store.addUser(user("u3"))).toBe(true);
        expect(await store.addUser(user("u1", [{ kind: "ParticipantAdmin" }], BOB))).toBe(false);
        expect(await store.user("u1")).toEqual(user("u1"));
        expect(await store.user("u9")).toBeUndefined();
        expect((await store.users("", 10)).map((u) => u.id)).toEqual(["u1", "u2", "u3"]);
        expect((await store.users("", 2)).map((u) => u.id)).toEqual(["u1", "u2"]);
        expect((await store.users("u2", 2)).map((u) => u.id)).toEqual(["u3"]);

        const granted = await store.grantRights("u2", [
          { kind: "CanActAs", party: ALICE },
          { kind: "CanActAs", party: ALICE },
          { kind: "CanReadAs", party: BOB },
          { kind: "ParticipantAdmin" },
        ]);
        expect(sortRights(granted)).toEqual(sortRights([{ kind: "CanActAs", party: ALICE }, { kind: "CanReadAs", party: BOB }]));
        expect(sortRights((await store.user("u2"))?.rights)).toEqual(
          sortRights([{ kind: "ParticipantAdmin" }, { kind: "CanActAs", party: ALICE }, { kind: "CanReadAs", party: BOB }]),
        );
        expect(await store.grantRights("u2", [{ kind: "CanActAs", party: ALICE }])).toEqual([]);

        const revoked = await store.revokeRights("u2", [{ kind: "CanReadAs", party: BOB }, { kind: "CanActAs", party: CAROL }]);
        expect(revoked).toEqual([{ kind: "CanReadAs", party: BOB }]);
        expect(sortRights((await store.user("u2"))?.rights)).toEqual(sortRights([{ kind: "ParticipantAdmin" }, { kind: "CanActAs", party: ALICE }]));
        expect(await store.revokeRights("u2", [{ kind: "CanReadAs", party: BOB }])).toEqual([]);

        expect(await store.grantRights("u9", [{ kind: "ParticipantAdmin" }])).toBeUndefined();
        expect(await store.revokeRights("u9", [{ kind: "ParticipantAdmin" }])).toBeUndefined();

        expect(await store.deleteUser("u1")).toBe(true);
        expect(await store.deleteUser("u1")).toBe(false);
        expect(await store.user("u1")).toBeUndefined();
        expect((await store.users("", 10)).map((u) => u.id)).toEqual(["u2", "u3"]);
        expect(await store.addUser(user("u1", [], BOB))).toBe(true);
        expect((await store.user("u1"))?.primaryParty).toBe(BOB);
      });

      it("users: updateUser stores what the change returns, atomically; a throwing change leaves the user as it was", async () => {
        const store = await fresh();
        expect(await store.addUser(user("u1", [{ kind: "CanActAs", party: ALICE }]))).toBe(true);
        const deactivated = await store.updateUser("u1", (u) => ({ ...u, isDeactivated: true, primaryParty: BOB }));
        expect(deactivated).toMatchObject({ id: "u1", isDeactivated: true, primaryParty: BOB, rights: [{ kind: "CanActAs", party: ALICE }] });
        expect(await store.user("u1")).toEqual(deactivated);
        expect(await store.updateUser("u9", (u) => u)).toBeUndefined();
        await expect(store.updateUser("u1", () => { throw new Error("stale"); })).rejects.toThrow("stale");
        expect(await store.user("u1")).toEqual(deactivated);
        // Concurrent read-modify-writes each see the other's result: no update is lost.
        const bump = (u: UserRecord): UserRecord => ({ ...u, metadata: { ...u.metadata, annotations: { n: String(Number(u.metadata.annotations.n ?? "0") + 1) } } });
        await Promise.all(Array.from({ length: 10 }, () => store.updateUser("u1", bump)));
        expect((await store.user("u1"))?.metadata.annotations).toEqual({ n: "10" });
      });

      it("settings: initSetting keeps the first value, putSetting overwrites", async () => {
        const store = await fresh();
        expect(await store.setting("s")).toBeUndefined();
        expect(await store.initSetting("s", "first")).toBe("first");
        expect(await store.initSetting("s", "second")).toBe("first");
        expect(await store.setting("s")).toBe("first");
        await store.putSetting("s", "third");
        expect(await store.setting("s")).toBe("third");
        expect(await store.initSetting("s", "fourth")).toBe("third");
        await store.putSetting("t", "new");
        expect(await store.setting("t")).toBe("new");
        const concurrent = await Promise.all(["x1", "x2", "x3"].map((v) => store.initSetting("x", v)));
        expect(new Set(concurrent).size).toBe(1);
        expect(await store.setting("x")).toBe(concurrent[0]);
      });
    });

    describe("close", () => {
      it("answers a commit queued before close, then refuses new ones", async () => {
        const store = await fresh();
        const pending = store.commit(txCommit({ creates: [contract()] }));
        await store.close();
        expect(await pending).toEqual({ kind: "committed", offset: 1n });
        await expect(store.commit(txCommit())).rejects.toThrow(/closed/);
      });
    });

    describe.skipIf(!reopen)("restart on the same data", () => {
      it("keeps contracts, offsets, completions, dedup entries, parties, users and settings; continues at end + 1", async () => {
        const first = await fresh();
        const changeKey = unique("change");
        const key = unique("key");
        const a = contract();
        const k = contract({ keyHash: key, nodeId: 1 });
        const t1 = txCommit({ dedup: { changeKey, since: 0n }, recordTime: 5_000n, creates: [a, k] });
        expect(await first.commit(t1)).toEqual({ kind: "committed", offset: 1n });
        await first.commit(rejection());
        const b = contract();
        await first.commit(txCommit({ archives: [a.contractId], creates: [b] }));
        await first.commit(txCommit({ archives: [a.contractId] })); // rejected: inactive
        await first.addParty(party("p1::1220"));
        await first.addUser(user("u1", [{ kind: "CanActAs", party: ALICE }]));
        await first.grantRights("u1", [{ kind: "CanReadAs", party: BOB }]);
        await first.initSetting("namespace", "ns-1");
        const before = {
          completions: await first.completions(0n, 100n, 100),
          transactions: await first.transactions(0n, 100n, 100),
          active: await first.activeContracts({}),
        };
        expect(offsets(before.completions)).toEqual([1n, 2n, 3n, 4n]);
        // Queued at close: answered, and so it must be there after the restart.
        const c = contract();
        const lastBeforeClose = first.commit(txCommit({ creates: [c] }));
        await first.close();
        expect(await lastBeforeClose).toEqual({ kind: "committed", offset: 5n });

        const second = await reopen!(first);
        opened.push(second);
        expect(await second.ledgerEnd()).toBe(5n);
        expect(offsets(await second.completions(0n, 100n, 100))).toEqual([1n, 2n, 3n, 4n, 5n]);
        expect((await second.completions(0n, 4n, 100))).toEqual(before.completions);
        expect(offsets(before.transactions)).toEqual([1n, 3n]);
        expect(offsets(await second.transactions(0n, 100n, 100))).toEqual([1n, 3n, 5n]);
        expect(await second.transactions(0n, 4n, 100)).toEqual(before.transactions);
        expect(await second.transactionById(t1.updateId)).toEqual({ ...t1.transaction, offset: 1n });
        expect(ids(await second.activeContracts({}))).toEqual([...ids(before.active), c.contractId]);
        expect(await second.activeContracts({ templateIds: [KEYED] })).toEqual(before.active.filter((x) => x.templateId === KEYED));
        expect(await second.activeContract(a.contractId)).toBeUndefined();
        expect((await second.activeContractByKey(key))?.contractId).toBe(k.contractId);
        expect(await second.acceptedCommand(changeKey)).toEqual({ offset: 1n, recordTime: 5_000n });
        expect(await second.party("p1::1220")).toEqual(party("p1::1220"));
        expect(sortRights((await second.user("u1"))?.rights)).toEqual(
          sortRights([{ kind: "CanActAs", party: ALICE }, { kind: "CanReadAs", party: BOB }]),
        );
        expect(await second.initSetting("namespace", "ns-2")).toBe("ns-1");

        // The rules still hold over the old data, and offsets continue densely.
        expect(await second.commit(txCommit({ dedup: { changeKey, since: 0n } }))).toEqual({
          kind: "rejected",
          offset: 6n,
          conflict: { kind: "duplicateCommand", existingOffset: 1n },
        });
        expect(await second.commit(txCommit({ creates: [contract({ keyHash: key })] }))).toMatchObject({ kind: "rejected", offset: 7n });
        expect(await second.commit(txCommit({ archives: [b.contractId, k.contractId], creates: [contract({ keyHash: key })] }))).toEqual({
          kind: "committed",
          offset: 8n,
        });
        expect(await second.commit(txCommit({ archives: [b.contractId] }))).toMatchObject({ kind: "rejected", offset: 9n });
        expect(await second.ledgerEnd()).toBe(9n);
        expect(offsets(await second.completions(0n, 100n, 100))).toEqual(range(1n, 9n));
        expect(ids(await second.activeContracts({}))).not.toContain(b.contractId);
      });
    });
  });
}

/** Request builders and fixtures, for adapter-specific tests and the other conformance parts. */
export { contract, rejection, txCommit, stored, ids, ALICE, BOB, CAROL, IOU, KEYED };
