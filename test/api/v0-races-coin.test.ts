/**
 * Exactly-once under concurrency, part 2: one-step sends through a preapproval, preapproval
 * creation (the operator pays), taps and sends while the automation merges holdings, and
 * token-standard transfers answered from both sides at once. Requests go out 10–30 at a time over
 * HTTP and gRPC (Connect); afterwards the money must add up to the last decimal (balance endpoint
 * and `/v2` contracts agree; holdings carry accrued fees). Static time: fees do not move during a race.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Numeric } from "../../src/ledger/numeric.js";
import { sendViaPreapproval } from "../../src/wallet/use-cases/send-via-preapproval.js";
import { newWalletLocal } from "../../src/wallet/wallet-deps.js";
import type { TestServer } from "../support/test-server.js";
import { acs, bearer, DAY, fund, ofTemplate, onboard, operatorWallet, type GrpcClients, type Wallet } from "./v0-coin-support.js";
import { expectOnly, holdFirst, minus, money, outrun, race, startRaces, successes as ok, tally, times, viaGrpc, type Answer, type Races } from "./v0-races-support.js";

const PREAPPROVAL = "Splice.AmuletRules:TransferPreapproval";
const PROPOSAL = "Splice.Wallet.TransferPreapproval:TransferPreapprovalProposal";
const INSTRUCTION = "Splice.AmuletTransferInstruction:AmuletTransferInstruction";
/** 90 days at 1 USD per 365 days, at 0.005 USD/CC (as test/api/v0-preapproval.test.ts). */
const FEE = "49.3150680000";

let r: Races;
let s: TestServer;
let grpc: GrpcClients;
let call: Races["call"];
let w: Races["w"];
let operator: Wallet;
let n = 0;

beforeAll(async () => {
  // spender: ten holdings of 10 CC, so twenty sends of 7 CC at once cannot all be covered.
  const users = { payee: [], payer: ["100"], spender: Array<string>(10).fill("10"), tapper: ["5"], "ts-sender": ["100"], "ts-receiver": [], single: [] };
  r = await startRaces(users, async ({ s, w, call }) => {
    operator = await operatorWallet(s);
    await fund(s, operator.party, "2000");
    expect((await call("POST", "/v0/wallet/transfer-preapproval", w.payee)).status).toBe(200);
  });
  ({ s, grpc, call, w } = r);
});
afterAll(() => r?.fx.stop());

const settle = () => r.settle();

/** A one-step send to the payee, over HTTP (even i) or gRPC (odd i). */
function send(from: Wallet, amount: string, deduplicationId: string, i: number): Promise<Answer> {
  if (i % 2 === 0) return call("POST", "/v0/wallet/transfer-preapproval/send", from, { receiver_party_id: w.payee.party, amount, deduplication_id: deduplicationId });
  return viaGrpc(grpc.wallet.transferPreapprovalSend({ receiverPartyId: w.payee.party, amount, deduplicationId }, bearer(from)));
}

/** Retries each answer with a status in `again` (same request, one at a time) until it has another. */
async function retried(answers: readonly Answer[], again: readonly number[], retry: (i: number) => Promise<Answer>): Promise<Answer[]> {
  const final = [...answers];
  for (let i = 0; i < final.length; i++) {
    for (let attempt = 0; again.includes(final[i].status) && attempt < 20; attempt++) final[i] = await retry(i);
  }
  return final;
}

describe("POST /v0/wallet/transfer-preapproval/send under concurrency", () => {
  it("the same deduplication_id 20× at once (HTTP and gRPC): paid exactly once", async () => {
    const before = [await money(s, w.payer), await money(s, w.payee)];
    const id = `dup-${++n}`;
    const answers = await race(20, (i) => send(w.payer, "4.5", id, i));
    expect(ok(answers), JSON.stringify(tally(answers))).toHaveLength(1);
    expectOnly(answers, [409, 429]);
    expect((await send(w.payer, "4.5", id, 0)).status).toBe(409);
    const after = [await money(s, w.payer), await money(s, w.payee)];
    expect(minus(before[0], after[0])).toBe("4.5000000000");
    expect(minus(after[1], before[1])).toBe("4.5000000000");
  });

  it("20 distinct ids at once from holdings that cover 14: the 14 are sent at once (one wallet's sends queue), 6 refused for funds; what was sent is exactly what arrived", async () => {
    const from = w.spender;
    const before = [await money(s, from), await money(s, w.payee)];
    expect(before[0].holdings).toBe(10);
    const ids = Array.from({ length: 20 }, () => `many-${++n}`);
    const first = await race(20, (i) => send(from, "7", ids[i], i));
    // Queued one after another, each send selects from the change of the one before: no 429.
    expect(tally(first)).toEqual({ 200: 14, 400: 6 });
    const sentFirst = ok(first).length;
    let mid = [await money(s, from), await money(s, w.payee)];
    expect(minus(before[0], mid[0])).toBe(times("7", sentFirst));
    expect(minus(mid[1], before[1])).toBe(times("7", sentFirst));

    // Retrying the failed ids (same deduplication ids) sends until the funds run out: 14 in all.
    const final = await retried(first, [429], (i) => send(from, "7", ids[i], i));
    expectOnly(final, [400]);
    expect(ok(final)).toHaveLength(Math.floor(Number(before[0].total.toString()) / 7));
    mid = [await money(s, from), await money(s, w.payee)];
    expect(minus(before[0], mid[0])).toBe(times("7", ok(final).length));
    expect(minus(mid[1], before[1])).toBe(times("7", ok(final).length));
    expect(mid[0].total.lt(Numeric.parse("7"))).toBe(true);
  });
});

describe("a send whose inputs were spent under it, step by step", () => {
  it("answers 429 (was 404, contract not found) and pays on retry", async () => {
    const x = await onboard(s, "outrun");
    await fund(s, x.party, "10"); // one holding: both sends pick it
    const before = await money(s, w.payee);
    // Held before interpretation: the competing send spends the holding first. One node queues a
    // party's sends (spend-queue.ts), so the competitor is another node on the same store: the
    // same ledger, wallet deps of its own.
    const hold = () => holdFirst(s.server.api.ledger, "submit", (sub) => sub.commandId === "transfer-preapproval-send-outrun-1");
    const otherNode = { ...s.server.wallet, local: newWalletLocal() };
    const sendFromOtherNode = async (): Promise<Answer> => {
      await sendViaPreapproval(otherNode, { sender: x.party, receiver: w.payee.party, amount: Numeric.parse("4"), deduplicationId: "outrun-2" });
      return { status: 200, body: {}, text: "" };
    };
    const lost = await outrun(hold, () => send(x, "4", "outrun-1", 0), sendFromOtherNode);
    expect(lost.status, lost.text).toBe(429);
    expect(lost.body.error).toMatch(/^Contract could not be found with id .*: a concurrent transaction used it; retry$/);
    expect((await send(x, "4", "outrun-1", 0)).status).toBe(200);
    expect((await money(s, x)).total.toString()).toBe("2.0000000000");
    expect(minus(await money(s, w.payee), before)).toBe("8.0000000000");
  });
});

describe("POST /v0/wallet/transfer-preapproval under concurrency", () => {
  const preapprovalsOf = async (x: Wallet) => ofTemplate(await acs(s, x), PREAPPROVAL).filter((c) => c.createArgument.receiver === x.party);
  const create = (x: Wallet, i: number): Promise<Answer> =>
    i % 2 === 0 ? call("POST", "/v0/wallet/transfer-preapproval", x) : viaGrpc(grpc.wallet.createTransferPreapproval({}, bearer(x)));

  it("10× at once for one party: one preapproval, the operator charged once", async () => {
    const x = w.single;
    const before = await money(s, operator);
    const answers = await race(10, (i) => create(x, i));
    expect(ok(answers), JSON.stringify(tally(answers))).toHaveLength(1);
    const [pre, ...more] = await preapprovalsOf(x);
    expect(more).toEqual([]);
    for (const a of answers) {
      if (a.status === 409) expect(a.body).toEqual({ transfer_preapproval_contract_id: pre.contractId });
      else if (a.status !== 200) expectOnly([a], [429]);
    }
    expect(ofTemplate(await acs(s, x), PROPOSAL)).toEqual([]);
    expect(minus(before, await money(s, operator))).toBe(FEE);
  });

  it("for 8 parties at once: each gets one preapproval at once, the operator pays 8 fees, no proposal left", async () => {
    const parties = await Promise.all(Array.from({ length: 8 }, (_, i) => onboard(s, `many-${i}`)));
    const before = await money(s, operator);
    // The operator's payments queue: all eight are paid at once, none told to retry.
    const answers = await race(parties.length, (i) => create(parties[i], i));
    expect(tally(answers)).toEqual({ 200: 8 });
    for (const x of parties) {
      expect((await preapprovalsOf(x)).length).toBe(1);
      expect(ofTemplate(await acs(s, x), PROPOSAL)).toEqual([]);
    }
    expect(minus(before, await money(s, operator))).toBe(times(FEE, 8));
  });
});

describe("taps, sends and the automation's merge at once", () => {
  it("30 taps, 10 sends and merge passes concurrently: the holdings add up exactly", async () => {
    const x = w.tapper;
    const before = [await money(s, x), await money(s, w.payee)];
    const ids = Array.from({ length: 10 }, () => `tap-send-${++n}`);
    const taps = race(30, (i) => (i % 2 === 0 ? call("POST", "/v0/wallet/tap", x, { amount: "1.5" }) : viaGrpc(grpc.wallet.tap({ amount: "1.5" }, bearer(x)))));
    const sends = race(10, (i) => send(x, "2", ids[i], i));
    const merges = race(3, () => settle());
    const [tapped, sent] = await Promise.all([taps, sends, merges]);
    expect(tally(tapped)).toEqual({ 200: 30 });
    expectOnly(sent, [400, 429]);
    const final = await retried(sent, [400, 429], (i) => send(x, "2", ids[i], i)); // a 400: sent before the taps landed
    expect(tally(final)).toEqual({ 200: 10 });
    await settle(); // merges what is left over the threshold
    const after = [await money(s, x), await money(s, w.payee)];
    expect(after[0].holdings).toBeLessThanOrEqual(10);
    expect(minus(after[0], before[0])).toBe(Numeric.parse(times("1.5", 30)).sub(Numeric.parse(times("2", 10))).toString());
    expect(minus(after[1], before[1])).toBe(times("2", 10));
  });

  it("the same tap command_id 10× at once mints once", async () => {
    const x = w.tapper;
    const before = await money(s, x);
    const commandId = `tap-once-${++n}`;
    const taps = await race(10, (i) => (i % 2 === 0 ? call("POST", "/v0/wallet/tap", x, { amount: "3", command_id: commandId }) : viaGrpc(grpc.wallet.tap({ amount: "3", commandId }, bearer(x)))));
    expect(ok(taps), JSON.stringify(tally(taps))).toHaveLength(1);
    expectOnly(taps, [409]);
    expect(minus(await money(s, x), before)).toBe("3.0000000000");
  });

  it("the wallet completing an accepted offer races the sender's own sends: everything paid, the offer completed, not aborted", async () => {
    const x = await onboard(s, "offer-and-send");
    await fund(s, x.party, "30"); // at the current round: no holding fee, the 30 CC cover exactly
    const before = await money(s, w.payee);
    const offer = { receiver_party_id: w.payee.party, amount: "20", description: "race", expires_at: Number(s.server.api.clock.now() + DAY), tracking_id: `offer-${++n}` };
    const automation = s.server.network.automation;
    await automation.stop();
    try {
      const created = await call("POST", "/v0/wallet/transfer-offers", x, offer);
      expect(created.status, created.text).toBe(200);
      expect((await call("POST", `/v0/wallet/transfer-offers/${created.body.offer_contract_id}/accept`, w.payee)).status).toBe(200);
    } finally {
      automation.start();
    }
    const ids = Array.from({ length: 5 }, () => `offer-send-${++n}`);
    const [sent] = await Promise.all([race(5, (i) => send(x, "2", ids[i], i)), settle()]);
    // The sends and the completion queue as the sender's spends: all paid, none told to retry.
    expect(tally(sent)).toEqual({ 200: 5 });
    await settle();
    expect((await call("POST", `/v0/wallet/transfer-offers/${offer.tracking_id}/status`, x)).body.status).toBe("completed");
    expect((await money(s, x)).total.isZero()).toBe(true);
    expect(minus(await money(s, w.payee), before)).toBe("30.0000000000");
  });
});

describe("token-standard transfers under concurrency", () => {
  const body = (trackingId: string) => ({ receiver_party_id: w["ts-receiver"].party, amount: "5", description: "race", expires_at: Number(s.server.api.clock.now() + DAY), tracking_id: trackingId });
  const create = (trackingId: string, i: number): Promise<Answer> => {
    const b = body(trackingId);
    if (i % 2 === 0) return call("POST", "/v0/wallet/token-standard/transfers", w["ts-sender"], b);
    const req = { receiverPartyId: b.receiver_party_id, amount: b.amount, description: b.description, expiresAt: BigInt(b.expires_at), trackingId };
    return viaGrpc(grpc.wallet.createTokenStandardTransfer(req, bearer(w["ts-sender"])));
  };
  const cidOf = (a: Answer): string => a.body.output?.transfer_instruction_cid ?? a.body.output?.output?.value?.transferInstructionCid;

  it("the same tracking_id 10× at once: one transfer; distinct ids at once: each created once, the CC locked, none lost", async () => {
    const sender = w["ts-sender"];
    const before = await money(s, sender);
    const id = `ts-same-${++n}`;
    const same = await race(10, (i) => create(id, i));
    expect(ok(same), JSON.stringify(tally(same))).toHaveLength(1);
    expectOnly(same, [409, 429]);
    const ids = Array.from({ length: 6 }, () => `ts-${++n}`);
    const distinct = await retried(await race(ids.length, (i) => create(ids[i], i)), [429], (i) => create(ids[i], i));
    expect(tally(distinct)).toEqual({ 200: 6 });
    const instructions = ofTemplate(await acs(s, sender), INSTRUCTION).map((c) => c.contractId);
    expect(instructions).toHaveLength(7);
    expect(instructions).toEqual(expect.arrayContaining([...same, ...distinct].filter((a) => a.status === 200).map(cidOf)));
    const after = await money(s, sender);
    expect(minus(after, before)).toBe("0.0000000000"); // locked, not spent
    expect(after.locked.gt(Numeric.parse(times("5", 7)))).toBe(true);
  });

  it("an accept that reaches the commit after the sender's withdraw answers 404 (was 429), the CC back with the sender", async () => {
    const [sender, receiver] = [w["ts-sender"], w["ts-receiver"]];
    const created = await create(`ts-${++n}`, 0);
    expect(created.status, created.text).toBe(200);
    const cid = cidOf(created);
    const before = [await money(s, sender), await money(s, receiver)];
    const hold = () => holdFirst(s.server.store, "commit", (c) => c.kind === "transaction" && c.completion.actAs.includes(receiver.party));
    const act = (who: Wallet, action: string) => () => call("POST", `/v0/wallet/token-standard/transfers/${cid}/${action}`, who);
    const lost = await outrun(hold, act(receiver, "accept"), act(sender, "withdraw"));
    expect(lost).toMatchObject({ status: 404, body: { error: `no open token-standard transfer ${cid} of party ${receiver.party}` } });
    const after = [await money(s, sender), await money(s, receiver)];
    expect([minus(after[0], before[0]), minus(after[1], before[1])]).toEqual(["0.0000000000", "0.0000000000"]);
  });

  it("accept races withdraw and reject: one outcome per transfer, the losers 404; no CC locked or lost", async () => {
    const [sender, receiver] = [w["ts-sender"], w["ts-receiver"]];
    const all = ofTemplate(await acs(s, sender), INSTRUCTION).map((c) => c.contractId);
    const before = [await money(s, sender), await money(s, receiver)];
    const plan: [Wallet, "accept" | "withdraw" | "reject"][] = [
      [receiver, "accept"],
      [sender, "withdraw"],
      [receiver, "accept"],
      [receiver, "reject"],
      [sender, "withdraw"],
      [receiver, "accept"],
    ];
    const rpc = { accept: grpc.wallet.acceptTokenStandardTransfer, withdraw: grpc.wallet.withdrawTokenStandardTransfer, reject: grpc.wallet.rejectTokenStandardTransfer };
    const act = (cid: string, i: number) => {
      const [who, action] = plan[i];
      return i % 2 === 0 ? call("POST", `/v0/wallet/token-standard/transfers/${cid}/${action}`, who) : viaGrpc(rpc[action]({ contractId: cid }, bearer(who)));
    };
    const perTransfer = await Promise.all(all.map((cid) => race(plan.length, (i) => act(cid, i))));
    let accepted = 0;
    for (const [k, answers] of perTransfer.entries()) {
      expect(ok(answers), `transfer ${k}: ${JSON.stringify(tally(answers))}`).toHaveLength(1);
      expectOnly(answers, [404]);
      if (plan[answers.findIndex((a) => a.status === 200)][1] === "accept") accepted++;
    }
    expect(ofTemplate(await acs(s, sender), INSTRUCTION)).toEqual([]);
    const after = [await money(s, sender), await money(s, receiver)];
    expect(after[0].locked.isZero()).toBe(true);
    expect(minus(before[0], after[0])).toBe(times("5", accepted));
    expect(minus(after[1], before[1])).toBe(times("5", accepted));
  });
});
