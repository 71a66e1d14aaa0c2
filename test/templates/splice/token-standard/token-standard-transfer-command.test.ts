/**
 * The legacy external-party send: `ExternalPartyAmuletRules_CreateTransferCommand`, then the DSO
 * as delegate runs the command through the receiver's preapproval in nonce order. Nonce rules:
 * equal executes and bumps the counter, smaller is archived as a failure, larger waits (a send
 * attempt aborts and changes nothing).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LedgerClient } from "../../../../src/ledger/ledger-client.js";
import { tokenStandardSteps } from "../../../../src/dso/token-standard.js";
import { choiceOf } from "../../../support/choice-of.js";
import { Numeric } from "../../../../src/ledger/numeric.js";
import {
  AmuletRules,
  ExternalPartyAmuletRules,
  TransferCommand,
  TransferCommandCounter,
  type AmuletRulesPayload,
  type ExternalPartyAmuletRulesPayload,
} from "../../../../src/templates/splice/index.js";
import type { AutomationStep } from "../../../../src/automation/automation-step.js";
import { startCc, type CcFixture } from "../../../support/cc-fixture.js";
import { ensureFactory, HOUR, snapshot } from "../../../support/token-standard-client.js";

const SECOND = 1_000_000n;

let fx: CcFixture;
let steps: AutomationStep[];
let wired: boolean;
let alice: string;
let carol: string;
let courier: string;
beforeAll(async () => {
  fx = await startCc();
  wired = await ensureFactory(fx);
  steps = tokenStandardSteps(fx.client);
  alice = await fx.party("alice");
  carol = await fx.party("carol");
  courier = await fx.party("courier");
  await fx.tap(fx.validator, "1000");
  await fx.tap(alice, "100");
  await preapprove(carol);
});
afterAll(() => fx.stop());

/** Lets the DSO's token-standard steps run until none acts: the node's loop once wired, else here. */
async function settleDso(): Promise<void> {
  if (wired) return fx.t.server.network.automation.runNow();
  for (let i = 0; i < 50; i++) {
    const state = await fx.network();
    let acted = false;
    for (const step of steps) if (await step.run(state, fx.clock.now(), "all")) acted = true;
    if (!acted) return;
  }
  throw new Error("DSO steps did not settle");
}

async function preapprove(receiver: string): Promise<void> {
  const s = await fx.network();
  const [funds] = await fx.holdings(fx.validator);
  await fx.client.exercise(
    [fx.validator, receiver],
    AmuletRules,
    s.rules.contractId,
    choiceOf<AmuletRulesPayload>(AmuletRules, "AmuletRules_CreateTransferPreapproval"),
    {
      context: { amuletRules: s.rules.contractId, context: { openMiningRound: (await fx.openRound()).contractId, issuingMiningRounds: [], validatorRights: [], featuredAppRight: null } },
      inputs: [{ tag: "InputAmulet", value: funds.contractId }],
      receiver,
      provider: fx.validator,
      expiresAt: fx.clock.now() + 90n * 86_400_000_000n,
    },
    { disclosed: await fx.disclosed() },
  );
}

async function createCommand(nonce: bigint, amount: string, opts: { expectedDso?: string; expiresAt?: bigint; delegate?: string } = {}) {
  const [rules] = await fx.client.active(ExternalPartyAmuletRules, [fx.dso]);
  const { result } = await fx.client.exercise(
    [alice],
    ExternalPartyAmuletRules,
    rules.contractId,
    choiceOf<ExternalPartyAmuletRulesPayload, unknown, { transferCommandCid: string }>(ExternalPartyAmuletRules, "ExternalPartyAmuletRules_CreateTransferCommand"),
    {
      sender: alice,
      receiver: carol,
      delegate: opts.delegate ?? fx.dso,
      amount: Numeric.parse(amount),
      expiresAt: opts.expiresAt ?? fx.clock.now() + HOUR,
      nonce,
      description: "rent",
      expectedDso: opts.expectedDso ?? fx.dso,
    },
    { disclosed: [rules.record] },
  );
  return result.transferCommandCid;
}

const amounts = async (party: string) => (await fx.holdings(party)).map((h) => h.payload.amount.initialAmount.toString()).sort();
const nextNonce = async () => (await fx.client.active(TransferCommandCounter, [alice])).map((c) => c.payload.nextNonce);

describe("TransferCommand", () => {
  it("runs in nonce order through the receiver's preapproval", async () => {
    await createCommand(0n, "10");
    await settleDso();
    expect(await amounts(carol)).toEqual(["10.0000000000"]);
    expect(await amounts(alice)).toEqual(["90.0000000000"]);
    expect(await nextNonce()).toEqual([1n]);
    expect(await fx.client.active(TransferCommand, [alice])).toEqual([]);
  });

  it("archives a stale nonce as a failure without moving CC", async () => {
    // Another delegate than the DSO, so the DSO's automation leaves this command to the test.
    const cid = await createCommand(0n, "10", { delegate: courier });
    const [counter] = await fx.client.active(TransferCommandCounter, [alice]);
    const { result } = await fx.client.exercise([courier], TransferCommand, cid, choiceOf(TransferCommand, "TransferCommand_Send"), sendArg(counter.contractId), {
      disclosed: [counter.record],
    });
    expect(result).toMatchObject({
      result: { tag: "TransferCommandResultFailure", value: { reason: { tag: "ITR_Other", value: { description: "Expected nonce 0 is smaller than current counter 1" } } } },
      nonce: 0n,
    });
    expect(await fx.client.contract(TransferCommand, cid)).toBeUndefined();
    expect(await amounts(carol)).toEqual(["10.0000000000"]);
    expect(await nextNonce()).toEqual([1n]);
  });

  it("keeps a future nonce waiting; sending it aborts and changes nothing", async () => {
    const cid = await createCommand(5n, "1");
    await settleDso();
    expect(await fx.client.contract(TransferCommand, cid)).toBeDefined();
    const [counter] = await fx.client.active(TransferCommandCounter, [alice]);
    const before = [...(await snapshot(fx, [alice, carol])), ...(await nextNonce()).map(String)];
    await expect(
      fx.client.exercise([fx.dso], TransferCommand, cid, choiceOf(TransferCommand, "TransferCommand_Send"), sendArg(counter.contractId)),
    ).rejects.toThrow(/Expected nonce 5 is bigger than current counter 1/);
    expect([...(await snapshot(fx, [alice, carol])), ...(await nextNonce()).map(String)]).toEqual(before);
    await fx.client.exercise([alice], TransferCommand, cid, choiceOf(TransferCommand, "TransferCommand_Withdraw"), {});
    expect(await fx.client.contract(TransferCommand, cid)).toBeUndefined();
  });

  it("refuses a wrong DSO or a past expiry at creation, and expires unexecuted commands", async () => {
    await expect(createCommand(1n, "1", { expectedDso: alice })).rejects.toThrow(/expectedDso/);
    await expect(createCommand(1n, "1", { expiresAt: fx.clock.now() })).rejects.toThrow(/expiresAt is in the future/);
    const cid = await createCommand(1n, "1000"); // more than alice has: the send fails and is retried
    await settleDso();
    expect(await fx.client.contract(TransferCommand, cid)).toBeDefined();
    await fx.advance(HOUR);
    await settleDso();
    expect(await fx.client.contract(TransferCommand, cid)).toBeUndefined();
    expect(await nextNonce()).toEqual([1n]);
  });

  it("sends a payable command of a nonce while an unpayable one of the same nonce waits out its backoff", async () => {
    const nonce = (await nextNonce())[0]!;
    const unpayable = await createCommand(nonce, "1000000");
    await settleDso();
    expect(await fx.client.contract(TransferCommand, unpayable)).toBeDefined();
    const payable = await createCommand(nonce, "1");
    await settleDso();
    expect(await fx.client.contract(TransferCommand, payable)).toBeUndefined();
    expect(await nextNonce()).toEqual([nonce + 1n]);
    await fx.client.exercise([alice], TransferCommand, unpayable, choiceOf(TransferCommand, "TransferCommand_Withdraw"), {});
  });

  it("reads no command on the ticks while none changed, expires or may be tried again", async () => {
    // A re-run of a hostile review: 17,000 commands that could not be sent, read on every tick
    // by the DSO and by the operator, kept 80 % of a core busy for good.
    const waiting = await createCommand(9n, "1"); // a future nonce: it waits
    await settleDso();
    const reads = vi.spyOn(LedgerClient.prototype, "active");
    try {
      for (let i = 0; i < 3; i++) await fx.advance(SECOND);
      expect(reads.mock.calls.filter(([template]) => template === TransferCommand)).toEqual([]);
      await createCommand(10n, "1"); // a change: the next look reads again
      await settleDso();
      expect(reads.mock.calls.filter(([template]) => template === TransferCommand).length).toBeGreaterThan(0);
    } finally {
      reads.mockRestore();
    }
    await fx.client.exercise([alice], TransferCommand, waiting, choiceOf(TransferCommand, "TransferCommand_Withdraw"), {});
  });
});

function sendArg(counterCid: string) {
  return {
    context: { amuletRules: "00", context: { openMiningRound: "00", issuingMiningRounds: [], validatorRights: [], featuredAppRight: null } },
    inputs: [],
    transferPreapprovalCidO: null,
    transferCounterCid: counterCid,
  };
}
