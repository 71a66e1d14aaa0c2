/**
 * Minting delegations (reference A.8): the delegate hosted here mints an external beneficiary's
 * coupons and, once it holds at least twice `amuletMergeLimit` amulets, merges the smallest so
 * that `amuletMergeLimit` remain, through `MintingDelegation_Mint`; other beneficiaries are left.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Numeric } from "../../../src/ledger/numeric.js";
import { MintingDelegation } from "../../../src/templates/splice/wallet/minting-delegation.js";
import { mintInputs } from "../../../src/wallet/automation/mint-for-delegations.js";
import type { SpendableCandidate } from "../../../src/wallet/support/transfer-inputs.js";
import { startCc, type CcFixture } from "../../support/cc-fixture.js";
import { jsonSignature, keyHolder, onboardExternal } from "../../support/external-key-holder.js";

const DAY = 86_400_000_000n;
let fx: CcFixture;

beforeAll(async () => {
  fx = await startCc();
});
afterAll(() => fx?.stop());

const candidate = (kind: "holding" | "coupon", value: string, id: string): SpendableCandidate =>
  ({ contractId: id, value: Numeric.parse(value), kind, input: { tag: kind === "holding" ? "InputAmulet" : "InputAppRewardCoupon", value: id } }) as SpendableCandidate;

describe("mint inputs", () => {
  it("takes every positive coupon, and the smallest holdings only from twice the limit on", () => {
    const holdings = ["5", "1", "3", "2", "4"].map((v, i) => candidate("holding", v, `h${i}`));
    const coupon = candidate("coupon", "0.5", "c0");
    expect(mintInputs([...holdings.slice(0, 3), coupon], 2n).map((c) => c.contractId)).toEqual(["c0"]);
    // 5 holdings >= 2 × 2: merge the 4 smallest into one, leaving 2.
    expect(mintInputs([...holdings, coupon], 2n).map((c) => c.contractId)).toEqual(["c0", "h1", "h3", "h2", "h4"]);
  });
});

describe("minting delegation trigger", () => {
  it("merges an external beneficiary down to its merge limit as the delegate; a self-signed delegation of a local party does nothing", async () => {
    const s = fx.t;
    const operator = await s.token("administrator");
    expect((await s.json("POST", "/v0/wallet/tap", { amount: "1000" }, operator)).status).toBe(200);
    // The beneficiary: an external party with the operator's preapproval (Splice's setup proposal).
    const holder = keyHolder();
    const ext = await onboardExternal(s, holder, "mint-beneficiary");
    const signed = (prepared: { transaction: string; tx_hash: string }) => ({
      party_id: ext.party,
      transaction: prepared.transaction,
      signed_tx_hash: holder.sign(Buffer.from(prepared.tx_hash, "hex")).toString("hex"),
      public_key: holder.raw.toString("hex"),
    });
    const proposal = await s.json("POST", "/v0/admin/external-party/setup-proposal", { user_party_id: ext.party }, operator);
    const acceptable = await s.json("POST", "/v0/admin/external-party/setup-proposal/prepare-accept", { contract_id: proposal.body.contract_id, user_party_id: ext.party }, operator);
    expect((await s.json("POST", "/v0/admin/external-party/setup-proposal/submit-accept", { submission: signed(acceptable.body) }, operator)).status).toBe(200);
    for (let i = 1; i <= 7; i++) {
      const sent = await s.json("POST", "/v0/wallet/transfer-preapproval/send", { receiver_party_id: ext.party, amount: String(i), deduplication_id: `mint-${i}` }, operator);
      expect(sent.status, sent.text).toBe(200);
    }
    // A local party's delegation to itself through the operator: any user may sign such ones (a
    // hostile review signed 20,000); Splice's trigger serves onboarded external parties only.
    const local = await fx.party("local");
    for (let i = 1; i <= 7; i++) await fx.tap(local, String(i));
    const delegation = (party: string) => ({ beneficiary: party, delegate: fx.validator, dso: fx.dso, expiresAt: fx.clock.now() + 10n * DAY, amuletMergeLimit: 3n });
    await fx.client.create([local, fx.validator], MintingDelegation, delegation(local));

    // The external party proposes (signed), the operator accepts as the delegate.
    const expiresAt = new Date(Number((fx.clock.now() + 10n * DAY) / 1000n)).toISOString();
    const create = { CreateCommand: { templateId: "#splice-wallet:Splice.Wallet.MintingDelegation:MintingDelegationProposal", createArguments: { delegation: { beneficiary: ext.party, delegate: fx.validator, dso: fx.dso, expiresAt, amuletMergeLimit: "3" } } } };
    const prepared = await s.json("POST", "/v2/interactive-submission/prepare", { commands: [create], commandId: "mint-proposal", actAs: [ext.party] }, ext.token);
    expect(prepared.status, prepared.text).toBe(200);
    const signature = jsonSignature(holder.sign(Buffer.from(prepared.body.preparedTransactionHash, "base64")), holder.fingerprint);
    const executed = await s.json(
      "POST",
      "/v2/interactive-submission/executeAndWaitForTransaction",
      { preparedTransaction: prepared.body.preparedTransaction, partySignatures: { signatures: [{ party: ext.party, signatures: [signature] }] }, submissionId: "mint-proposal", hashingSchemeVersion: "HASHING_SCHEME_VERSION_V2" },
      ext.token,
    );
    expect(executed.status, executed.text).toBe(200);
    const proposalCid = executed.body.transaction.events[0].CreatedEvent.contractId;
    const accepted = await s.json("POST", `/v0/wallet/minting-delegation-proposals/${proposalCid}/accept`, undefined, operator);
    expect(accepted.status, accepted.text).toBe(200);

    await fx.t.server.network.automation.runNow();
    // A mint that lost a race is retried after a backoff the loop's `settled` does not wait for.
    for (let i = 0; i < 200 && (await fx.holdings(ext.party)).length > 3; i++) await new Promise((r) => setTimeout(r, 50));
    const left = await fx.holdings(ext.party);
    expect(left).toHaveLength(3);
    expect(Numeric.total(left.map((h) => h.payload.amount.initialAmount)).toString()).toBe("28.0000000000");
    expect(left.map((h) => h.payload.amount.initialAmount.toString()).sort()).toEqual(["15.0000000000", "6.0000000000", "7.0000000000"]);
    expect(await fx.holdings(local)).toHaveLength(7);
  }, 30_000);
});
