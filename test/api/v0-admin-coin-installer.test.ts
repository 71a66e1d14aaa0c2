/**
 * The wallet installation on Canton Coin that onboarding runs (`POST /v0/admin/users`, the
 * operator at first start): a `WalletAppInstall` signed by user and operator, and the user's
 * `MergeDelegationProposal` accepted by the operator. Checked on `/v2`; idempotent, finishes an
 * interrupted install, undone by offboarding.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MergeDelegation, MergeDelegationProposal } from "../../src/templates/splice/merge-delegation.js";
import { WalletAppInstall } from "../../src/templates/splice/wallet/install.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { acs, ccDeps, ofTemplate, onboard, operatorWallet, type Wallet } from "./v0-coin-support.js";

const INSTALL = "Splice.Wallet.Install:WalletAppInstall";
const MERGE = "Splice.Util.Token.Wallet.MergeDelegation:MergeDelegation";
const MERGE_PROPOSAL = "Splice.Util.Token.Wallet.MergeDelegation:MergeDelegationProposal";

let s: TestServer;
let operator: Wallet;

beforeAll(async () => {
  s = await startTestServer({ CCWALLET_TIME: "static" });
  operator = await operatorWallet(s);
});
afterAll(() => s?.stop());

/** What the operator sees of a party's installation (the operator signs both contracts). */
async function installationOf(party: string) {
  const all = await acs(s, operator);
  return {
    installs: ofTemplate(all, INSTALL)
      .filter((c) => c.createArgument.endUserParty === party)
      .map((c) => c.createArgument.endUserName as string)
      .sort(),
    merges: ofTemplate(all, MERGE).filter((c) => c.createArgument.owner === party).length,
    proposals: ofTemplate(all, MERGE_PROPOSAL).filter((c) => c.createArgument.delegation.owner === party).length,
  };
}

describe("wallet installation", () => {
  it("the operator's own wallet is installed at first start", async () => {
    const [own] = ofTemplate(await acs(s, operator), INSTALL).filter((c) => c.createArgument.endUserParty === operator.party);
    expect(own.createArgument).toEqual({ dsoParty: s.server.network.parties.dso, validatorParty: operator.party, endUserName: "administrator", endUserParty: operator.party });
    expect((await installationOf(operator.party)).merges).toBe(1);
  });

  it("onboarding installs the user's wallet, visible to the user on /v2; onboarding again adds nothing", async () => {
    const ivy = await onboard(s, "ivy");
    const mine = await acs(s, ivy);
    expect(ofTemplate(mine, INSTALL).map((c) => c.createArgument)).toEqual([
      { dsoParty: s.server.network.parties.dso, validatorParty: operator.party, endUserName: "ivy", endUserParty: ivy.party },
    ]);
    expect(ofTemplate(mine, MERGE).map((c) => c.createArgument)).toEqual([{ operator: operator.party, owner: ivy.party, meta: { values: {} } }]);
    expect(ofTemplate(mine, MERGE_PROPOSAL)).toEqual([]);
    const ids = mine.map((c) => c.contractId).sort();
    await onboard(s, "ivy");
    expect((await acs(s, ivy)).map((c) => c.contractId).sort()).toEqual(ids);
  });

  it("finishes an interrupted installation (a proposal left unaccepted) without duplicates", async () => {
    const deps = ccDeps(s);
    const party = await deps.client.allocateParty("jon-wallet");
    await deps.client.create([party], MergeDelegationProposal, { delegation: { operator: operator.party, owner: party, meta: { values: new Map() } } });
    await s.server.wallet.installer.installWallet(party, "jon");
    await s.server.wallet.installer.installWallet(party, "jon");
    expect(await installationOf(party)).toEqual({ installs: ["jon"], merges: 1, proposals: 0 });
    expect(await deps.client.active(WalletAppInstall, [party])).toHaveLength(1);
    expect(await deps.client.active(MergeDelegation, [party])).toHaveLength(1);
  });

  it("offboarding archives the user's install; the merge delegation goes with the party's last one", async () => {
    const kim = await onboard(s, "kim");
    const shared = await s.json("POST", "/v0/admin/users", { name: "kim2", party_id: kim.party }, operator.token);
    expect(shared.status).toBe(200);
    expect(await installationOf(kim.party)).toEqual({ installs: ["kim", "kim2"], merges: 1, proposals: 0 });
    expect((await s.json("POST", "/v0/admin/users/offboard?username=kim", undefined, operator.token)).status).toBe(200);
    expect(await installationOf(kim.party)).toEqual({ installs: ["kim2"], merges: 1, proposals: 0 });
    expect((await s.json("POST", "/v0/admin/users/offboard?username=kim2", undefined, operator.token)).status).toBe(200);
    expect(await installationOf(kim.party)).toEqual({ installs: [], merges: 0, proposals: 0 });
    // onboarding the party again installs again
    await s.json("POST", "/v0/admin/users", { name: "kim3", party_id: kim.party }, operator.token);
    expect(await installationOf(kim.party)).toEqual({ installs: ["kim3"], merges: 1, proposals: 0 });
  });
});
