/** The engine against an in-memory SQLite store: authorization, visibility, keys, transient contracts. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WallClock } from "../../src/ledger/clock.js";
import type { Command, Submission } from "../../src/ledger/commands.js";
import { Ledger, type SubmitOutcome } from "../../src/ledger/engine.js";
import { projectTransaction, wildcardFilters } from "../../src/ledger/event-format.js";
import { t, type ValueOf } from "../../src/ledger/daml-type.js";
import { newUpdateIds } from "../../src/ledger/ids.js";
import { Numeric } from "../../src/ledger/numeric.js";
import { PreparedInterpretations } from "../../src/ledger/prepared-interpretations.js";
import { qualifiedName } from "../../src/ledger/registry.js";
import { preparedBounds } from "../../src/ledger/time-bounds.js";
import { choice, defineTemplate } from "../../src/ledger/template.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { Account, createRegistry, Iou } from "../../src/templates/index.js";

const A = "alice::1220aa";
const B = "bob::1220bb";
let store: SqliteStore;
let ledger: Ledger;
let n = 0;

const iou = (issuer: string, owner: string, amount = "10") => ({ issuer, owner, currency: "CC", amount: Numeric.parse(amount), observers: [] as string[] });
const submission = (actAs: string[], commands: Command[], readAs: string[] = []): Submission => ({
  userId: "u",
  commandId: `c${++n}`,
  submissionId: `s${n}`,
  workflowId: "",
  actAs,
  readAs,
  commands,
  deduplication: { kind: "none" },
  disclosed: [],
});

beforeEach(async () => {
  store = new SqliteStore({ file: ":memory:" });
  ledger = await Ledger.open({ store, registry: createRegistry(), clock: new WallClock(), maxDeduplicationSeconds: 3600n });
});
afterEach(() => store.close());

async function create(actAs: string[], payload: ReturnType<typeof iou>) {
  const out = await ledger.submit(submission(actAs, [{ kind: "create", template: Iou as never, payload }]));
  if (out.kind !== "committed") throw out.error;
  return out.transaction.nodes[0].contractId;
}

describe("interpreter", () => {
  it("requires the signatories' authority for a create", async () => {
    const out = await ledger.submit(submission([A], [{ kind: "create", template: Iou as never, payload: iou(B, A) }]));
    expect(out.kind).toBe("rejected");
    if (out.kind === "rejected") expect(out.error.code).toBe("DAML_AUTHORIZATION_ERROR");
  });

  it("lets a choice create with the contract's signatories' authority", async () => {
    const cid = await create([A], iou(A, B));
    // Bob is the controller; Alice's signature on the new Iou comes from the exercised contract.
    const out = await ledger.submit(
      submission([B], [{ kind: "exercise", target: { kind: "template", template: Iou as never }, contractId: cid, choice: "Iou_Transfer", argument: { newOwner: B } }]),
    );
    expect(out.kind).toBe("committed");
    if (out.kind !== "committed") return;
    const [ex, cr] = out.transaction.nodes;
    expect(ex).toMatchObject({ kind: "exercise", consuming: true, lastDescendantNodeId: 1, actingParties: [B] });
    expect(cr).toMatchObject({ kind: "create", signatories: [A], observers: [B] });
    expect(await store.activeContract(cid)).toBeUndefined();
  });

  it("refuses controllers that did not submit, and hides contracts from non-stakeholders", async () => {
    const cid = await create([A], iou(A, A));
    const wrong = await ledger.submit(
      submission([B], [{ kind: "exercise", target: { kind: "template", template: Iou as never }, contractId: cid, choice: "Iou_Inspect", argument: {} }]),
    );
    expect(wrong.kind === "rejected" && wrong.error.code).toBe("CONTRACT_NOT_FOUND");
  });

  it("omits transient contracts from the ACS delta but shows them in ledger effects", async () => {
    const out = await ledger.submit(
      submission([A], [{ kind: "createAndExercise", template: Iou as never, payload: iou(A, A, "5"), choice: "Iou_Split", argument: { splitAmount: Numeric.parse("2") } }]),
    );
    expect(out.kind).toBe("committed");
    if (out.kind !== "committed") return;
    const format = (shape: "ACS_DELTA" | "LEDGER_EFFECTS") => ({ shape, eventFormat: { byParty: new Map([[A, wildcardFilters]]), verbose: true } });
    const acs = projectTransaction(out.transaction, format("ACS_DELTA"), () => []);
    expect(acs.map((e) => e.kind)).toEqual(["created", "created"]);
    const le = projectTransaction(out.transaction, format("LEDGER_EFFECTS"), () => []);
    expect(le.map((e) => e.kind)).toEqual(["created", "exercised", "created", "created"]);
    expect(le[0].kind === "created" && le[0].acsDelta).toBe(false);
    expect((await store.activeContracts({ parties: [A] })).length).toBe(2);
  });

  it("aborts the whole transaction when a later command fails", async () => {
    const cid = await create([A], iou(A, A, "5"));
    const out = await ledger.submit(
      submission([A], [
        { kind: "exercise", target: { kind: "template", template: Iou as never }, contractId: cid, choice: "Iou_Split", argument: { splitAmount: Numeric.parse("1") } },
        { kind: "create", template: Iou as never, payload: iou(A, A, "-1") },
      ]),
    );
    expect(out.kind === "rejected" && out.error.code).toBe("DAML_INTERPRETATION_ERROR");
    expect(await store.activeContract(cid)).toBeDefined();
    expect((await store.activeContracts({ parties: [A] })).length).toBe(1);
  });

  it("enforces key uniqueness and resolves exercise-by-key", async () => {
    const acct = { owner: A, id: "main", balance: Numeric.parse("1") };
    const first = await ledger.submit(submission([A], [{ kind: "create", template: Account as never, payload: acct }]));
    expect(first.kind).toBe("committed");
    const dup = await ledger.submit(submission([A], [{ kind: "create", template: Account as never, payload: acct }]));
    expect(dup.kind === "rejected" && dup.error.code).toBe("DUPLICATE_CONTRACT_KEY");
    const dep = await ledger.submit(
      submission([A], [{ kind: "exerciseByKey", template: Account as never, key: { owner: A, id: "main" }, choice: "Account_Deposit", argument: { amount: Numeric.parse("2") } }]),
    );
    expect(dep.kind).toBe("committed");
    const active = await store.activeContracts({ parties: [A] });
    expect(active.map((c) => (c.payload as { balance: string }).balance)).toEqual(["3.0000000000"]);
  });
});

describe("replayable interpretations", () => {
  const probePayload = t.record({ owner: t.party, id: t.text }, { packageName: "ccwallet-demo", moduleName: "Ccwallet.Demo.Probe", entityName: "KeyProbe" });
  type ProbePayload = ValueOf<typeof probePayload>;
  const Probe = choice({
    name: "Probe",
    consuming: false,
    argument: t.record({}),
    result: t.optional(t.contractId),
    controllers: (p: ProbePayload) => [p.owner],
    body: (ctx, self) => ctx.lookupByKey(Account, { owner: self.payload.owner, id: self.payload.id }),
  });
  const KeyProbe = defineTemplate<ProbePayload>({
    id: qualifiedName("ccwallet-demo", "0.1.0", "Ccwallet.Demo.Probe", "KeyProbe"),
    payload: probePayload,
    signatories: (p) => [p.owner],
    choices: [Probe],
  });
  const probe = (id: string) =>
    ledger.interpret(submission([A], [{ kind: "createAndExercise", template: KeyProbe as never, payload: { owner: A, id }, choice: "Probe", argument: {} }]), 1n, newUpdateIds());

  const openAccount = async () => {
    const created = await ledger.submit(submission([A], [{ kind: "create", template: Account as never, payload: { owner: A, id: "main", balance: Numeric.parse("1") } }]));
    expect(created.kind).toBe("committed");
  };

  it("depend only on their inputs unless a key lookup came back empty (which the commit does not re-check)", async () => {
    await openAccount();
    const found = await probe("main");
    expect(found.inputs).toHaveLength(1);
    expect(found.replayable).toBe(true);
    const missed = await probe("nowhere");
    expect(missed.inputs).toEqual([]);
    expect(missed.replayable).toBe(false);
  });

  it("are remembered by update id and hash (and the prepared message), handed out once, within count and size limits", async () => {
    await openAccount();
    const replayable = await probe("main");
    const prepared = new PreparedInterpretations({ maxEntries: 2, maxBytes: 100, maxEntryBytes: 60 });
    const message = { prepared: "u1" };
    prepared.remember("u1", "h1", replayable, message, 10);
    prepared.remember("u2", "h2", { ...replayable, replayable: false }, {}, 10);
    expect(prepared.size).toBe(1);
    expect(prepared.hashOf("u1", message)).toBe("h1");
    expect(prepared.hashOf("u1", { ...message })).toBeUndefined(); // an equal message from elsewhere is hashed again
    expect(prepared.take("u1", "h-other")).toBeUndefined();
    expect(prepared.take("u1", "h1")).toBe(replayable);
    expect(prepared.take("u1", "h1")).toBeUndefined();
    // The oldest go past the count, and past the total size; one too big is not kept at all.
    for (const id of ["a", "b", "c"]) prepared.remember(id, id, replayable, {}, 10);
    expect([prepared.take("a", "a"), prepared.take("b", "b"), prepared.take("c", "c")].map(Boolean)).toEqual([false, true, true]);
    prepared.remember("big", "big", replayable, {}, 61);
    expect(prepared.take("big", "big")).toBeUndefined();
    prepared.remember("d", "d", replayable, {}, 50);
    prepared.remember("e", "e", replayable, {}, 50);
    // Past a limit the oldest go until 7/8 of both limits are left: here d and e, for f's 40 bytes.
    prepared.remember("f", "f", replayable, {}, 40);
    expect([prepared.take("d", "d"), prepared.take("e", "e"), prepared.take("f", "f")].map(Boolean)).toEqual([false, false, true]);
  });
});

describe("ledger time of an externally signed run", () => {
  const clockPayload = t.record({ owner: t.party }, { packageName: "ccwallet-demo", moduleName: "Ccwallet.Demo.Probe", entityName: "Clock" });
  type ClockPayload = ValueOf<typeof clockPayload>;
  const Now = choice({
    name: "Now",
    consuming: false,
    argument: t.record({}),
    result: t.time,
    controllers: (p: ClockPayload) => [p.owner],
    body: (ctx) => ctx.ledgerTime,
  });
  const Nothing = choice({
    name: "Nothing",
    consuming: false,
    argument: t.record({}),
    result: t.unit,
    controllers: (p: ClockPayload) => [p.owner],
    body: () => ({}),
  });
  // Daml's `assertWithinDeadline`: a comparison, which bounds the ledger time instead of fixing it.
  const BeforeDeadline = choice({
    name: "BeforeDeadline",
    consuming: false,
    argument: t.record({ deadline: t.time }),
    result: t.unit,
    controllers: (p: ClockPayload) => [p.owner],
    body: (ctx, _self, arg: { deadline: bigint }) => {
      ctx.require(ctx.isLedgerTimeLT(arg.deadline), "the deadline has passed");
      return {};
    },
  });
  const Clock = defineTemplate<ClockPayload>({
    id: qualifiedName("ccwallet-demo", "0.1.0", "Ccwallet.Demo.Probe", "Clock"),
    payload: clockPayload,
    signatories: (p) => [p.owner],
    choices: [Now, Nothing, BeforeDeadline],
  });
  /** The choice prepared `ago` microseconds before now (as the interactive submission does) and executed now. */
  const signedRun = async (choiceName: string, ago: bigint, argument: object = {}) => {
    const preparedAt = new WallClock().now() - ago;
    const run = submission([A], [{ kind: "createAndExercise", template: Clock as never, payload: { owner: A }, choice: choiceName, argument }]);
    const ids = newUpdateIds();
    const prepared = await ledger.interpret(run, preparedAt, ids);
    const outcome = await ledger.submit(run, { ...ids, timeBounds: preparedBounds(prepared, preparedAt), externalTransactionHash: "00", prepared });
    return { outcome, preparedAt, bounds: preparedBounds(prepared, preparedAt) };
  };
  const effectiveAt = async (outcome: SubmitOutcome) => (outcome.kind === "committed" ? (await store.transactionById(outcome.transaction.updateId))?.effectiveAt : undefined);

  it("refuses one that read the time further than 60 s from when it was prepared (Canton's ledger/record time tolerance)", async () => {
    const { outcome: late, bounds } = await signedRun("Now", 90_000_000n);
    expect(bounds.min).toBe(bounds.max);
    expect(late.kind).toBe("rejected");
    if (late.kind !== "rejected") return;
    expect(late.error.code).toBe("LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND");
    expect(late.error.message).toMatch(/exceed the time tolerance ledgerTime=\S+Z, recordTime=\S+Z, maxDelta=PT60S/);
    const recent = await signedRun("Now", 30_000_000n);
    expect(recent.outcome.kind).toBe("committed");
    expect(await effectiveAt(recent.outcome)).toBe(recent.preparedAt);
  });

  it("runs one that neither read nor compared the time at the time it is executed, however long ago it was prepared", async () => {
    const before = new WallClock().now();
    const { outcome, bounds } = await signedRun("Nothing", 3_600_000_000n);
    expect(bounds).toEqual({});
    expect(outcome.kind).toBe("committed");
    expect(await effectiveAt(outcome)).toBeGreaterThanOrEqual(before);
    // Its contract was created when it committed, as its created event says, not when it was prepared.
    if (outcome.kind !== "committed") return;
    const created = outcome.transaction.nodes.find((n) => n.kind === "create")!;
    expect((await store.activeContract(created.contractId))?.createdAt).toBe(outcome.transaction.effectiveAt);
  });

  it("runs one that compared the time as long as its bounds still hold: Daml's deadlines suit external signing", async () => {
    const now = new WallClock().now();
    const hour = 3_600_000_000n;
    // Prepared an hour ago with a deadline an hour ahead: the comparison bounds the time, it does not fix it.
    const inTime = await signedRun("BeforeDeadline", hour, { deadline: now + hour });
    expect(inTime.bounds).toEqual({ max: now + hour - 1n });
    expect(inTime.outcome.kind).toBe("committed");
    expect(await effectiveAt(inTime.outcome)).toBeGreaterThanOrEqual(now);
    // The deadline passed half an hour ago: its last valid time is too far from now.
    const late = await signedRun("BeforeDeadline", hour, { deadline: now - hour / 2n });
    expect(late.outcome.kind === "rejected" && late.outcome.error.code).toBe("LOCAL_VERDICT_LEDGER_TIME_OUT_OF_BOUND");
    // Passed 10 s ago: the transaction commits at its last valid time, within the tolerance.
    const justAfter = await signedRun("BeforeDeadline", hour, { deadline: now - 10_000_000n });
    expect(justAfter.outcome.kind).toBe("committed");
    expect(await effectiveAt(justAfter.outcome)).toBe(now - 10_000_000n - 1n);
  });
});

