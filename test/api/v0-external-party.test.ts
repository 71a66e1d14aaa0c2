/**
 * An external party through Splice's validator endpoints only, by a client holding an Ed25519 key
 * from node:crypto: onboard with signed topology, accept the operator's setup proposal (which gives
 * it a TransferPreapproval), receive CC from a wallet user through that preapproval, send CC back
 * with prepare-send/submit-send (executed by the operator's automation in nonce order), and read
 * its balance. Bad input (signatures, keys, hex, callers, nonces) is refused and changes nothing.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PreparedTransactionSchema } from "../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { LedgerClient } from "../../src/ledger/ledger-client.js";
import { Amulet } from "../../src/templates/splice/index.js";
import { TransferCommand_Send } from "../../src/templates/splice/external-party-amulet-rules.js";
import { keyHolder, type KeyHolder } from "../support/external-key-holder.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let operator: string;
let holder: KeyHolder;
let party: string;
let alice: { party: string; token: string };

const hexSign = (h: KeyHolder, hex: string) => h.sign(Buffer.from(hex, "hex")).toString("hex");
const submission = (h: KeyHolder, prepared: { transaction: string; tx_hash: string }, partyId = party) => ({
  party_id: partyId,
  transaction: prepared.transaction,
  signed_tx_hash: hexSign(h, prepared.tx_hash),
  public_key: h.raw.toString("hex"),
});
const balanceOf = async (p: string) => (await s.json("GET", `/v0/admin/external-party/balance?party_id=${encodeURIComponent(p)}`, undefined, operator)).body;

beforeAll(async () => {
  s = await startTestServer();
  operator = await s.token("administrator");
  holder = keyHolder();
  // The operator pays the preapproval fees: give it funds.
  expect((await s.json("POST", "/v0/wallet/tap", { amount: "1000" }, operator)).status).toBe(200);
  const onboarded = await s.json("POST", "/v0/admin/users", { name: "v0ext-alice" }, operator);
  alice = { party: onboarded.body.party_id, token: await s.token("v0ext-alice") };
  expect((await s.json("POST", "/v0/wallet/tap", { amount: "100" }, alice.token)).status).toBe(200);
}, 60_000);
afterAll(() => s?.stop());

async function poll<T>(read: () => Promise<T>, done: (t: T) => boolean, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const t = await read();
    if (done(t) || Date.now() > until) return t;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("external party through /v0/admin/external-party", () => {
  it("onboards with signed topology transactions", async () => {
    const gen = await s.json("POST", "/v0/admin/external-party/topology/generate", { party_hint: "v0-ext", public_key: holder.raw.toString("hex") }, operator);
    expect(gen.status, gen.text).toBe(200);
    expect(gen.body.party_id).toBe(`v0-ext::${holder.fingerprint}`);
    expect(gen.body.topology_txs).toHaveLength(3);
    for (const t of gen.body.topology_txs) expect(t.hash).toBe(holder.txHash(Buffer.from(t.topology_tx, "base64")).toString("hex"));

    const signed = (h: KeyHolder) => gen.body.topology_txs.map((t: { topology_tx: string; hash: string }) => ({ topology_tx: t.topology_tx, signed_hash: hexSign(h, t.hash) }));
    const other = keyHolder();
    const refused = await s.json("POST", "/v0/admin/external-party/topology/submit", { public_key: holder.raw.toString("hex"), signed_topology_txs: signed(other) }, operator);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toEqual({ error: expect.any(String) });
    const notOperator = await s.json("POST", "/v0/admin/external-party/topology/submit", { public_key: holder.raw.toString("hex"), signed_topology_txs: signed(holder) }, alice.token);
    expect(notOperator.status).toBe(403);
    const ok = await s.json("POST", "/v0/admin/external-party/topology/submit", { public_key: holder.raw.toString("hex"), signed_topology_txs: signed(holder) }, operator);
    expect(ok.status, ok.text).toBe(200);
    party = ok.body.party_id;
    expect(party).toBe(gen.body.party_id);
  });

  it("accepts the operator's setup proposal with a signed transaction, which creates its preapproval", async () => {
    const created = await s.json("POST", "/v0/admin/external-party/setup-proposal", { user_party_id: party }, operator);
    expect(created.status, created.text).toBe(200);
    const again = await s.json("POST", "/v0/admin/external-party/setup-proposal", { user_party_id: party }, operator);
    expect(again.status, again.text).toBe(409);
    expect(again.body.error).toContain(created.body.contract_id);
    const listed = await s.json("GET", "/v0/admin/external-party/setup-proposal", undefined, operator);
    expect(listed.body.contracts.map((c: any) => c.contract.contract_id)).toContain(created.body.contract_id);

    const mismatch = await s.json("POST", "/v0/admin/external-party/setup-proposal/prepare-accept", { contract_id: "00" + "ab".repeat(33), user_party_id: party }, operator);
    expect(mismatch.status, mismatch.text).toBe(400);
    expect(mismatch.body.error).toBe("Found contract does not match provided contractId.");
    const prepared = await s.json("POST", "/v0/admin/external-party/setup-proposal/prepare-accept", { contract_id: created.body.contract_id, user_party_id: party }, operator);
    expect(prepared.status, prepared.text).toBe(200);
    expect(prepared.body.tx_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(prepared.body).not.toHaveProperty("hashing_details");
    // verbose_hashing: the trace of the hash (a second preparation: its own UUID, so its own hash).
    const verbose = await s.json("POST", "/v0/admin/external-party/setup-proposal/prepare-accept", { contract_id: created.body.contract_id, user_party_id: party, verbose_hashing: true }, operator);
    expect(verbose.status, verbose.text).toBe(200);
    expect(verbose.body.hashing_details).toContain("# Exercise Node");
    expect(verbose.body.hashing_details.trimEnd().split("\n").at(-1)).toBe(`# Prepared Transaction Hash: ${verbose.body.tx_hash}`);

    const forged = await s.json("POST", "/v0/admin/external-party/setup-proposal/submit-accept", { submission: submission(keyHolder(), prepared.body) }, operator);
    expect(forged.status, forged.text).toBe(400);
    const badHex = await s.json("POST", "/v0/admin/external-party/setup-proposal/submit-accept", { submission: { ...submission(holder, prepared.body), signed_tx_hash: "zz" } }, operator);
    expect(badHex.status, badHex.text).toBe(400);
    const shortKey = await s.json("POST", "/v0/admin/external-party/setup-proposal/submit-accept", { submission: { ...submission(holder, prepared.body), public_key: "ab".repeat(31) } }, operator);
    expect(shortKey.status, shortKey.text).toBe(400);

    const accepted = await s.json("POST", "/v0/admin/external-party/setup-proposal/submit-accept", { submission: submission(holder, prepared.body) }, operator);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.update_id).toMatch(/^1220/);
    const preapproval = await s.json("GET", `/v0/scan-proxy/transfer-preapprovals/by-party/${encodeURIComponent(party)}`, undefined, alice.token);
    expect(preapproval.body.transfer_preapproval.contract.contract_id).toBe(accepted.body.transfer_preapproval_contract_id);
    expect(preapproval.body.transfer_preapproval.contract.payload).toMatchObject({ receiver: party, provider: expect.stringMatching(/::/) });
    const replay = await s.json("POST", "/v0/admin/external-party/setup-proposal/submit-accept", { submission: submission(holder, prepared.body) }, operator);
    expect(replay.status, replay.text).toBe(409);
  });

  it("receives CC from a wallet user through its preapproval and reads its balance", async () => {
    const sent = await s.json("POST", "/v0/wallet/transfer-preapproval/send", { receiver_party_id: party, amount: "40", deduplication_id: "v0ext-1" }, alice.token);
    expect(sent.status, sent.text).toBe(200);
    expect(await balanceOf(party)).toMatchObject({ party_id: party, total_unlocked_coin: "40.0000000000" });
  });

  it("is acted for by nobody without its signature: no wallet user, no wallet install, no unsigned command", async () => {
    const before = await balanceOf(party);
    const admin = await s.adminToken();
    // The operator onboarding a wallet user for it: refused, and no user is left behind.
    const onboard = await s.json("POST", "/v0/admin/users", { name: "v0ext-thief", party_id: party }, operator);
    expect(onboard.status, onboard.text).toBe(400);
    expect(onboard.body.error).toContain("is an external party");
    expect((await s.json("GET", "/v2/users/v0ext-thief", undefined, admin)).status).toBe(404);
    // A ledger user that may act as it (the Ledger API's own onboarding) asking for a wallet.
    const user = await s.json("POST", "/v2/users", { user: { id: "v0ext-self", primaryParty: party }, rights: [{ kind: { CanActAs: { value: { party } } } }] }, admin);
    expect(user.status, user.text).toBe(200);
    const self = await s.token("v0ext-self");
    const register = await s.json("POST", "/v0/register", {}, self);
    expect(register.status, register.text).toBe(400);
    expect(register.body.error).toContain("is an external party");
    for (const [path, body] of [
      ["/v0/wallet/transfer-preapproval/send", { receiver_party_id: alice.party, amount: "1", deduplication_id: "v0ext-steal" }],
      ["/v0/wallet/tap", { amount: "1" }],
    ] as const) {
      const r = await s.json("POST", path, body, self);
      expect(r.status, `${path}: ${r.text}`).toBe(403);
    }
    // Unsigned commands as the party, from any in-process caller (the wallet, the automation).
    const client = new LedgerClient(s.server.api.ledger, "v0ext-self", s.server.api.namespace);
    const holding = (await client.active(Amulet, [party]))[0];
    await expect(client.exercise([party], Amulet, holding.contractId, Amulet.archive, {})).rejects.toMatchObject({ code: "DAML_AUTHORIZATION_ERROR" });
    expect(await balanceOf(party)).toEqual(before);
  });

  it("sends CC with prepare-send and submit-send; the operator's automation executes it in nonce order", async () => {
    expect((await s.json("POST", "/v0/wallet/transfer-preapproval", undefined, alice.token)).status).toBeLessThan(300);
    const aliceBefore = (await s.json("GET", "/v0/wallet/balance", undefined, alice.token)).body.effective_unlocked_qty;
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const body = (nonce: number, amount: unknown = 12.5) => ({ sender_party_id: party, receiver_party_id: alice.party, amount, expires_at: expiresAt, nonce });
    const unknownReceiver = await s.json("POST", "/v0/admin/external-party/transfer-preapproval/prepare-send", { ...body(0), receiver_party_id: `nobody::${"12".repeat(34)}` }, operator);
    expect(unknownReceiver.status, unknownReceiver.text).toBe(404);
    const past = await s.json("POST", "/v0/admin/external-party/transfer-preapproval/prepare-send", { ...body(0), expires_at: "2020-01-01T00:00:00Z" }, operator);
    expect(past.status, past.text).toBe(400);

    const prepared = await s.json("POST", "/v0/admin/external-party/transfer-preapproval/prepare-send", { ...body(0), verbose_hashing: true }, operator);
    expect(prepared.status, prepared.text).toBe(200);
    expect(prepared.body.hashing_details.trimEnd().split("\n").at(-1)).toBe(`# Prepared Transaction Hash: ${prepared.body.tx_hash}`);
    expect(prepared.body.transfer_command_contract_id_prefix).toMatch(/^00[0-9a-f]{64}$/);
    // Its deadline bounds the ledger time rather than fixing it (Daml's assertWithinDeadline): the
    // party may sign any time before expires_at, not only within the 60 s ledger time tolerance.
    const md = fromBinary(PreparedTransactionSchema, Buffer.from(prepared.body.transaction, "base64")).metadata!;
    expect([md.minLedgerEffectiveTime, md.maxLedgerEffectiveTime]).toEqual([undefined, BigInt(Date.parse(expiresAt)) * 1000n - 1n]);
    const submitted = await s.json("POST", "/v0/admin/external-party/transfer-preapproval/submit-send", { submission: submission(holder, prepared.body) }, operator);
    expect(submitted.status, submitted.text).toBe(200);

    const statusOf = async (nonce: number) => (await s.json("GET", `/v0/scan-proxy/transfer-command/status?sender=${encodeURIComponent(party)}&nonce=${nonce}`, undefined, alice.token)).body;
    const status = await poll(() => statusOf(0), (b) => Object.values(b.transfer_commands_by_contract_id ?? {}).some((c: any) => c.status.status !== "created"));
    const [[cid, entry]] = Object.entries(status.transfer_commands_by_contract_id) as [string, any][];
    expect(cid.startsWith(prepared.body.transfer_command_contract_id_prefix)).toBe(true);
    expect(entry.status).toEqual({ status: "sent" });
    expect(await balanceOf(party)).toMatchObject({ total_unlocked_coin: "27.5000000000" }); // preapproval sends carry no fees here
    const aliceAfter = (await s.json("GET", "/v0/wallet/balance", undefined, alice.token)).body.effective_unlocked_qty;
    expect(Number(aliceAfter) - Number(aliceBefore)).toBeCloseTo(12.5, 6);

    // A reused nonce: the command is created, then fails at execution (the counter has moved on).
    const reused = await s.json("POST", "/v0/admin/external-party/transfer-preapproval/prepare-send", body(0, "1"), operator);
    expect((await s.json("POST", "/v0/admin/external-party/transfer-preapproval/submit-send", { submission: submission(holder, reused.body) }, operator)).status).toBe(200);
    const failed = await poll(() => statusOf(0), (b) => Object.values(b.transfer_commands_by_contract_id).some((c: any) => c.status.status === "failed"));
    expect(Object.values(failed.transfer_commands_by_contract_id)).toContainEqual(
      expect.objectContaining({ status: { status: "failed", failure_kind: "failed", reason: "Expected nonce 0 is smaller than current counter 1" } }),
    );
    expect(await balanceOf(party)).toMatchObject({ total_unlocked_coin: "27.5000000000" });
  }, 30_000);

  it("a skipped nonce waits for the one before it", async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const send = async (nonce: number) => {
      const p = await s.json("POST", "/v0/admin/external-party/transfer-preapproval/prepare-send", { sender_party_id: party, receiver_party_id: alice.party, amount: "1", expires_at: expiresAt, nonce }, operator);
      expect(p.status, p.text).toBe(200);
      expect((await s.json("POST", "/v0/admin/external-party/transfer-preapproval/submit-send", { submission: submission(holder, p.body) }, operator)).status).toBe(200);
    };
    const statuses = async (nonce: number) =>
      Object.values((await s.json("GET", `/v0/scan-proxy/transfer-command/status?sender=${encodeURIComponent(party)}&nonce=${nonce}`, undefined, alice.token)).body.transfer_commands_by_contract_id).map((c: any) => c.status.status);
    await send(2);
    await new Promise((r) => setTimeout(r, 500));
    expect(await statuses(2)).toEqual(["created"]);
    await send(1);
    expect(await poll(() => statuses(2), (x) => x[0] === "sent")).toEqual(["sent"]);
    expect(await statuses(1)).toEqual(["sent"]);
    expect(await balanceOf(party)).toMatchObject({ total_unlocked_coin: "25.5000000000" });
  }, 20_000);

  it("sends no TransferCommand of a sender that is not an external party onboarded here, though anyone may name the operator", async () => {
    // A hostile review: 20,000 unpayable commands of an ordinary user, each tried every pass, held
    // the whole automation loop for 14 s. Splice's trigger skips senders without an external wallet.
    const me = alice.party;
    const op = (await s.json("GET", "/v0/wallet/user-status", undefined, operator)).body.party_id;
    const dso = (await s.json("GET", "/v0/scan-proxy/dso-party-id", undefined, alice.token)).body.dso_party_id;
    const holdings = (await s.json("GET", "/v0/wallet/amulets", undefined, alice.token)).body.amulets;
    const now = Date.now();
    const transfer = { sender: me, receiver: party, amount: "1.0", instrumentId: { admin: dso, id: "Amulet" }, requestedAt: new Date(now - 1000).toISOString(), executeBefore: new Date(now + 3_600_000).toISOString(), inputHoldingCids: [holdings[0].contract.contract.contract_id], meta: { values: {} } };
    const factory = await s.json("POST", "/registry/transfer-instruction/v1/transfer-factory", { choiceArguments: { expectedAdmin: dso, transfer, extraArgs: { context: { values: {} }, meta: { values: {} } } }, excludeDebugFields: true }, alice.token);
    expect(factory.status, factory.text).toBe(200);
    const rules = factory.body.factoryId;
    const disclosedContracts = factory.body.choiceContext.disclosedContracts.filter((d: { contractId: string }) => d.contractId === rules);
    const sends = vi.spyOn(LedgerClient.prototype, "exercise");
    try {
      for (let i = 0; i < 20; i++) {
        const choiceArgument = { sender: me, receiver: party, delegate: op, amount: String(1e9 + i), expiresAt: "9999-01-01T00:00:00Z", nonce: "0", description: null, expectedDso: dso };
        const command = { ExerciseCommand: { templateId: "#splice-amulet:Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules", contractId: rules, choice: "ExternalPartyAmuletRules_CreateTransferCommand", choiceArgument } };
        const r = await s.json("POST", "/v2/commands/submit-and-wait", { commands: [command], commandId: `v0ext-poison-${i}`, actAs: [me], disclosedContracts }, alice.token);
        expect(r.status, r.text).toBe(200);
      }
      await new Promise((r) => setTimeout(r, 2_500)); // two automation passes and more
      expect(sends.mock.calls.filter((c) => c[3] === TransferCommand_Send)).toEqual([]);
    } finally {
      sends.mockRestore();
    }
  }, 30_000);

  it("refuses amounts a JSON number cannot carry exactly, and unknown status lookups", async () => {
    const r = await s.json(
      "POST",
      "/v0/admin/external-party/transfer-preapproval/prepare-send",
      { sender_party_id: party, receiver_party_id: alice.party, amount: 1234567.123456789012, expires_at: new Date(Date.now() + 60_000).toISOString(), nonce: 3 },
      operator,
    );
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatch(/decimal string/);
    // A number with more than 10 decimals is refused as its string is, never rounded.
    for (const amount of [2.5e-10, 0.123456789012345]) {
      const over = await s.json(
        "POST",
        "/v0/admin/external-party/transfer-preapproval/prepare-send",
        { sender_party_id: party, receiver_party_id: alice.party, amount, expires_at: new Date(Date.now() + 60_000).toISOString(), nonce: 3 },
        operator,
      );
      expect(over.status, `${amount}: ${over.text}`).toBe(400);
      expect(over.body.error).toMatch(/10 decimal/);
    }
    const none = await s.json("GET", `/v0/scan-proxy/transfer-command/status?sender=${encodeURIComponent(party)}&nonce=99`, undefined, alice.token);
    expect(none.status).toBe(404);
  });
});
