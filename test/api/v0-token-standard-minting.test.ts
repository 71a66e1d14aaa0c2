/**
 * Minting delegations over real HTTP and gRPC: a beneficiary proposes through `/v2` (as any
 * client would), the wallet user as delegate lists, accepts (replacing its older delegation for
 * the same beneficiary) or rejects proposals, lists and ends delegations. Pages, refusals that
 * change nothing, effects on `/v2`, every 200 body against the Splice OpenAPI.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResponseLog } from "../support/openapi-validator.js";
import { describeOpenApiConformance } from "../support/openapi-conformance.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { acs, bearer, caller, DAY, grpcClients, ofTemplate, onboard, type GrpcClients, type Wallet } from "./v0-coin-support.js";

const PROPOSAL = "Splice.Wallet.MintingDelegation:MintingDelegationProposal";
const DELEGATION = "Splice.Wallet.MintingDelegation:MintingDelegation";

let s: TestServer;
let grpc: GrpcClients;
let dan: Wallet;
let frank: Wallet;
let eve: { party: string; token: string };
let zoe: { party: string; token: string };
const log = new ResponseLog();
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  s = await startTestServer({ CCWALLET_TIME: "static" });
  call = caller(s, log);
  grpc = grpcClients(s);
  dan = await onboard(s, "dan");
  frank = await onboard(s, "frank");
  eve = await s.partyUser("eve");
  zoe = await s.partyUser("zoe");
});
afterAll(() => s?.stop());

/** The beneficiary signs a proposal through the JSON Ledger API. */
async function propose(beneficiary: { party: string; token: string }, delegate: Wallet, mergeLimit = "10"): Promise<string> {
  const expiresAt = new Date(Number((s.server.api.clock.now() + 30n * DAY) / 1000n)).toISOString();
  const delegation = { beneficiary: beneficiary.party, delegate: delegate.party, dso: s.server.network.parties.dso, expiresAt, amuletMergeLimit: mergeLimit };
  const r = await s.json(
    "POST",
    "/v2/commands/submit-and-wait-for-transaction",
    {
      commands: {
        commands: [{ CreateCommand: { templateId: `#splice-wallet:${PROPOSAL}`, createArguments: { delegation } } }],
        commandId: `propose-${Math.random().toString(36).slice(2)}`,
        actAs: [beneficiary.party],
      },
    },
    beneficiary.token,
  );
  expect(r.status, r.text).toBe(200);
  return r.body.transaction.events[0].CreatedEvent.contractId;
}

const proposalsPage = (w: Wallet, query = "") => call("GET", `/v0/wallet/minting-delegation-proposals${query}`, w);
const delegationsPage = (w: Wallet, query = "") => call("GET", `/v0/wallet/minting-delegations${query}`, w);
const ids = (items: { contract: { contract_id: string } }[]) => items.map((i) => i.contract.contract_id);

describe("minting delegation proposals", () => {
  let first: string;
  let second: string;

  it("lists the proposals naming the user as delegate, oldest first, with beneficiary_hosted", async () => {
    first = await propose(eve, dan, "10");
    second = await propose(zoe, dan, "20");
    await propose(eve, frank);
    const r = await proposalsPage(dan);
    expect(r.status).toBe(200);
    expect(ids(r.body.proposals)).toEqual([first, second]);
    expect(r.body.proposals[0]).toMatchObject({
      beneficiary_hosted: true,
      contract: { contract_id: first, payload: { delegation: { beneficiary: eve.party, delegate: dan.party, amuletMergeLimit: "10" } } },
    });
    expect(r.body.next_page_token).toBeUndefined();
  });

  it("pages with limit and after", async () => {
    const page1 = await proposalsPage(dan, "?limit=1");
    expect(ids(page1.body.proposals)).toEqual([first]);
    expect(typeof page1.body.next_page_token).toBe("number");
    const page2 = await proposalsPage(dan, `?limit=1&after=${page1.body.next_page_token}`);
    expect(ids(page2.body.proposals)).toEqual([second]);
    expect(page2.body.next_page_token).toBeUndefined();
    expect(await proposalsPage(dan, "?limit=0")).toMatchObject({ status: 400, body: { error: "limit must be a positive integer, got 0" } });
    expect((await proposalsPage(dan, "?limit=many")).status).toBe(400);
  });

  it("accept creates the delegation; a later accepted proposal of the same beneficiary replaces it", async () => {
    const r = await call("POST", `/v0/wallet/minting-delegation-proposals/${first}/accept`, dan);
    expect(r.status, r.text).toBe(200);
    const delegation = r.body.contract_id;
    const onLedger = ofTemplate(await acs(s, dan), DELEGATION);
    expect(onLedger.map((c) => [c.contractId, c.createArgument.beneficiary])).toEqual([[delegation, eve.party]]);
    expect(ofTemplate(await acs(s, dan), PROPOSAL).map((c) => c.contractId)).toEqual([second]);

    const again = await propose(eve, dan, "30");
    const replaced = await call("POST", `/api/validator/v0/wallet/minting-delegation-proposals/${again}/accept`, dan);
    expect(replaced.status).toBe(200);
    const now = ofTemplate(await acs(s, dan), DELEGATION);
    expect(now.map((c) => [c.contractId, c.createArgument.amuletMergeLimit])).toEqual([[replaced.body.contract_id, "30"]]);
    const listed = await delegationsPage(dan);
    expect(ids(listed.body.delegations)).toEqual([replaced.body.contract_id]);
    expect(listed.body.delegations[0].beneficiary_hosted).toBe(true);
  });

  it("reject archives the proposal", async () => {
    const r = await call("POST", `/v0/wallet/minting-delegation-proposals/${second}/reject`, dan);
    expect(r.status).toBe(200);
    expect(ofTemplate(await acs(s, dan), PROPOSAL)).toEqual([]);
    expect(ids((await proposalsPage(dan)).body.proposals)).toEqual([]);
  });

  it("refuses strangers, unknown, malformed and wrong-template ids, changing nothing", async () => {
    const pending = await propose(zoe, dan);
    const [delegation] = ids((await delegationsPage(dan)).body.delegations);
    const before = (await acs(s, dan)).map((c) => c.contractId).sort();
    const cases: [Wallet, string, number, RegExp][] = [
      [frank, `/v0/wallet/minting-delegation-proposals/${pending}/accept`, 404, /no minting delegation proposal .* with delegate/],
      [frank, `/v0/wallet/minting-delegation-proposals/${pending}/reject`, 404, /no minting delegation proposal/],
      [frank, `/v0/wallet/minting-delegations/${delegation}/reject`, 404, /no minting delegation .* with delegate/],
      [dan, `/v0/wallet/minting-delegation-proposals/${delegation}/accept`, 404, /no minting delegation proposal/],
      [dan, `/v0/wallet/minting-delegations/${pending}/reject`, 404, /no minting delegation/],
      [dan, `/v0/wallet/minting-delegation-proposals/00${"cd".repeat(33)}/accept`, 404, /no minting delegation proposal/],
      [dan, `/v0/wallet/minting-delegation-proposals/xyz/accept`, 400, /contract_id: "xyz" is not a contract id/],
    ];
    for (const [who, path, status, error] of cases) {
      const r = await call("POST", path, who);
      expect(r.status, `${path} -> ${r.text}`).toBe(status);
      expect(r.body.error).toMatch(error);
    }
    expect((await acs(s, dan)).map((c) => c.contractId).sort()).toEqual(before);
    // the beneficiary is not a wallet user here
    expect((await call("GET", "/v0/wallet/minting-delegations", eve.token)).status).toBe(403);
  });
});

describe("minting delegations", () => {
  it("reject ends the delegation", async () => {
    const [delegation] = ids((await delegationsPage(dan)).body.delegations);
    expect((await call("POST", `/v0/wallet/minting-delegations/${delegation}/reject`, dan)).status).toBe(200);
    expect(ofTemplate(await acs(s, dan), DELEGATION)).toEqual([]);
    expect((await delegationsPage(dan)).body).toEqual({ delegations: [] });
  });

  it("on gRPC: list and accept with the Connect client", async () => {
    const cid = await propose(eve, frank, "5");
    const listed = await grpc.wallet.listMintingDelegationProposals({}, bearer(frank));
    expect(listed.proposals.map((p) => p.contract?.contractId)).toContain(cid);
    const { contractId } = await grpc.wallet.acceptMintingDelegationProposal({ contractId: cid }, bearer(frank));
    const delegations = await grpc.wallet.listMintingDelegations({ limit: 10 }, bearer(frank));
    expect(delegations.delegations.map((d) => [d.contract?.contractId, d.beneficiaryHosted])).toEqual([[contractId, true]]);
  });
});

describeOpenApiConformance(() => log, {
  title: "every 200 body conforms, every error body is {error}",
  operations: [
    "wallet-internal.yaml#acceptMintingDelegationProposal",
    "wallet-internal.yaml#listMintingDelegationProposals",
    "wallet-internal.yaml#listMintingDelegations",
    "wallet-internal.yaml#rejectMintingDelegation",
    "wallet-internal.yaml#rejectMintingDelegationProposal",
  ],
});
