/**
 * The validator and onboarding endpoints over real HTTP: validator operator at first start,
 * `/v0/admin/users` (onboard, list, offboard), `/v0/register`, `/v0/validator-user`,
 * `/v0/wallet/user-status`, `/v0/feature-support` — happy paths, bad input and auth refusals, each
 * checked on the ledger through `/v2`, and every 200 body against the Splice OpenAPI.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueToken } from "../../src/auth/index.js";
import { loadConfig } from "../../src/config/index.js";
import { startServer } from "../../src/server.js";
import type { WalletInstaller } from "../../src/wallet/index.js";
import { ResponseLog } from "../support/openapi-validator.js";
import { describeOpenApiConformance } from "../support/openapi-conformance.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let operator: string;
let namespace: string;
const log = new ResponseLog();

/** A `/v0` call (under `/api/validator` when `prefixed`), logged for the OpenAPI check. */
async function call(method: string, path: string, token: string | null, body?: unknown, prefixed = false) {
  const full = (prefixed ? "/api/validator" : "") + path;
  const r = await s.json(method, full, body, token);
  log.add(method, full, r.status, r.body);
  return r;
}

beforeAll(async () => {
  s = await startTestServer();
  operator = await s.token("administrator");
  const info = await call("GET", "/v0/validator-user", null);
  namespace = (info.body.party_id as string).split("::")[1];
});
afterAll(() => s?.stop());

const rightsOf = async (user: string) => ((await s.json("GET", `/v2/users/${encodeURIComponent(user)}/rights`)).body.rights as unknown[]) ?? [];

describe("validator operator", () => {
  it("exists from the first start: party owned by CCWALLET_VALIDATOR_USER, wallet installed; /v0/validator-user is public", async () => {
    for (const prefixed of [false, true]) {
      const r = await call("GET", "/v0/validator-user", null, undefined, prefixed);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ party_id: `administrator::${namespace}`, user_name: "administrator", featured: true });
    }
    const user = await s.json("GET", "/v2/users/administrator");
    expect(user.body.user.primaryParty).toBe(`administrator::${namespace}`);
    expect(await rightsOf("administrator")).toEqual(
      expect.arrayContaining([
        { kind: { CanActAs: { value: { party: `administrator::${namespace}` } } } },
        { kind: { CanReadAs: { value: { party: `administrator::${namespace}` } } } },
      ]),
    );
    const status = await call("GET", "/v0/wallet/user-status", operator);
    expect(status.body).toEqual({ party_id: `administrator::${namespace}`, user_onboarded: true, user_wallet_installed: true, has_featured_app_right: true });
  });

  it("keeps the same party across restarts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-restart-"));
    try {
      const t = await startTestServer({}, dir);
      const first = (await t.json("GET", "/v0/validator-user", undefined, null)).body.party_id;
      await t.stop();
      const again = await startTestServer({}, dir);
      expect((await again.json("GET", "/v0/validator-user", undefined, null)).body.party_id).toBe(first);
      await again.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("POST /v0/admin/users", () => {
  it("onboards: fresh party from the name, ledger user acting and reading as it, wallet installed; idempotent", async () => {
    const r = await call("POST", "/v0/admin/users", operator, { name: "alice" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ party_id: `alice::${namespace}` });
    const party = await s.json("GET", `/v2/parties/${encodeURIComponent(r.body.party_id)}`);
    expect(party.body.partyDetails.map((p: { party: string }) => p.party)).toEqual([r.body.party_id]);
    expect((await s.json("GET", "/v2/users/alice")).body.user.primaryParty).toBe(r.body.party_id);
    expect(await rightsOf("alice")).toEqual(
      expect.arrayContaining([{ kind: { CanActAs: { value: { party: r.body.party_id } } } }, { kind: { CanReadAs: { value: { party: r.body.party_id } } } }]),
    );
    const status = await call("GET", "/v0/wallet/user-status", await s.token("alice"));
    expect(status.body).toEqual({ party_id: r.body.party_id, user_onboarded: true, user_wallet_installed: true, has_featured_app_right: false });
    const again = await call("POST", "/v0/admin/users", operator, { name: "alice" }, true);
    expect(again.body).toEqual(r.body);
  });

  it("uses a given existing party, and allocates a given missing one only with createPartyIfMissing", async () => {
    const existing = await s.partyUser("holder");
    const r = await call("POST", "/v0/admin/users", operator, { name: "dora", party_id: existing.party });
    expect(r.body).toEqual({ party_id: existing.party });

    const wanted = `erin-wallet::${namespace}`;
    const refused = await call("POST", "/v0/admin/users", operator, { name: "erin", party_id: wanted });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toMatch(/does not exist.*createPartyIfMissing/);
    expect((await s.json("GET", "/v2/users/erin")).status).toBe(404);

    const created = await call("POST", "/v0/admin/users", operator, { name: "erin", party_id: wanted, createPartyIfMissing: true });
    expect(created.body).toEqual({ party_id: wanted });
    expect((await s.json("GET", `/v2/parties/${encodeURIComponent(wanted)}`)).body.partyDetails).toHaveLength(1);

    const foreign = await call("POST", "/v0/admin/users", operator, { name: "fred", party_id: "fred::1220abcd", createPartyIfMissing: true });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatch(/cannot be allocated here/);
  });

  it("allocates a distinct party when the name's party is taken, and maps user-name characters to a valid hint", async () => {
    await s.json("POST", "/v2/parties", { partyIdHint: "gus" });
    const r = await call("POST", "/v0/admin/users", operator, { name: "gus" });
    expect(r.body.party_id).toMatch(new RegExp(`^gus-[0-9a-f]{8}::${namespace}$`));
    const odd = await call("POST", "/v0/admin/users", operator, { name: "hal@example.com" });
    expect(odd.body.party_id).toBe(`hal_example_com::${namespace}`);
  });

  it("refuses bad input with 400/409 and changes nothing", async () => {
    const cases: [unknown, number, RegExp][] = [
      [{}, 400, /name: missing required field/],
      [{ name: 7 }, 400, /name: expected a string, got number 7/],
      [{ name: "bad name!" }, 400, /not a valid user name/],
      [{ name: "ivy", party_id: "no-namespace" }, 400, /is not a party id/],
      [{ name: "ivy", createPartyIfMissing: "yes" }, 400, /createPartyIfMissing: expected a boolean/],
      [{ name: "ivy", create_party_if_missing: true }, 400, /create_party_if_missing: unknown field/],
      [{ name: "alice", party_id: `other::${namespace}` }, 409, /already onboarded with party alice::/],
      ["[1]", 400, /must be a JSON object/],
      ["{", 400, /not JSON/],
    ];
    for (const [body, status, error] of cases) {
      const r = await call("POST", "/v0/admin/users", operator, body);
      expect({ body, status: r.status }).toEqual({ body, status });
      expect(r.body.error).toMatch(error);
    }
    expect((await s.json("GET", "/v2/users/ivy")).status).toBe(404);
  });

  it("requires the operator's token or a participant admin's: 401 without a valid token, 403 for others", async () => {
    const admin = await call("POST", "/v0/admin/users", await s.adminToken(), { name: "jack" });
    expect(admin.status).toBe(200);
    expect((await call("POST", "/v0/admin/users", null, { name: "kim" })).status).toBe(401);
    const forged = await call("POST", "/v0/admin/users", (await s.token("administrator")).slice(0, -4) + "AAAA", { name: "kim" });
    expect(forged.status).toBe(401);
    expect(forged.body.error).toMatch(/^missing or invalid bearer token: /);
    const expired = await call("POST", "/v0/admin/users", await s.token("administrator", -60), { name: "kim" });
    expect(expired.status).toBe(401);
    const byAlice = await call("POST", "/v0/admin/users", await s.token("alice"), { name: "kim" });
    expect(byAlice.status).toBe(403);
    expect(byAlice.body.error).toMatch(/neither the validator operator/);
    expect((await s.json("GET", "/v2/users/kim")).status).toBe(404);
  });
});

describe("GET /v0/admin/users and POST /v0/admin/users/offboard", () => {
  it("lists onboarded users only", async () => {
    await call("POST", "/v0/admin/users", operator, { name: "lena" });
    const plain = await s.partyUser("plain");
    const r = await call("GET", "/v0/admin/users", operator);
    expect(r.status).toBe(200);
    expect(r.body.usernames).toEqual(expect.arrayContaining(["administrator", "alice", "lena"]));
    expect(r.body.usernames).not.toContain(plain.user);
    expect(r.body.usernames).not.toContain("participant_admin");
    expect((await call("GET", "/v0/admin/users", await s.token("lena"))).status).toBe(403);
  });

  it("offboards: deletes the ledger user, keeps the party; the wallet refuses the user afterwards", async () => {
    const { body } = await call("POST", "/v0/admin/users", operator, { name: "mia" });
    const mia = await s.token("mia");
    expect((await call("GET", "/v0/wallet/balance", mia)).status).toBe(200);
    const r = await call("POST", "/v0/admin/users/offboard?username=mia", operator, undefined, true);
    expect(r.status).toBe(200);
    expect((await s.json("GET", "/v2/users/mia")).status).toBe(404);
    expect((await s.json("GET", `/v2/parties/${encodeURIComponent(body.party_id)}`)).body.partyDetails).toHaveLength(1);
    expect((await call("GET", "/v0/admin/users", operator)).body.usernames).not.toContain("mia");
    expect((await call("GET", "/v0/wallet/user-status", mia)).body).toEqual({ party_id: "", user_onboarded: false, user_wallet_installed: false, has_featured_app_right: false });
    expect((await call("GET", "/v0/wallet/balance", mia)).status).toBe(403);
    // onboarding again gives the party back (the ledger user was deleted, the party kept its name)
    expect((await call("POST", "/v0/admin/users", operator, { name: "mia", party_id: body.party_id })).body).toEqual(body);
  });

  it("refuses unknown users (404), a missing username (400), the operator (400) and non-admins (403)", async () => {
    expect((await call("POST", "/v0/admin/users/offboard?username=nobody", operator)).status).toBe(404);
    const missing = await call("POST", "/v0/admin/users/offboard", operator);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/username: missing required field/);
    const self = await call("POST", "/v0/admin/users/offboard?username=administrator", operator);
    expect(self.status).toBe(400);
    expect((await call("POST", "/v0/admin/users/offboard?username=alice", await s.token("alice"))).status).toBe(403);
    // Authorization comes before validation: a non-admin without a username is refused, not corrected.
    const nonAdminMissing = await call("POST", "/v0/admin/users/offboard", await s.token("alice"));
    expect(nonAdminMissing.status).toBe(403);
    expect(nonAdminMissing.body.error).toMatch(/neither the validator operator/);
    expect((await call("POST", "/v0/admin/users/offboard", null)).status).toBe(401);
    expect((await call("GET", "/v0/wallet/user-status", await s.token("alice"))).body.user_onboarded).toBe(true);
  });
});

describe("POST /v0/register and GET /v0/wallet/user-status", () => {
  it("self-onboards the token's user (body absent, {} or null); idempotent", async () => {
    const nora = await s.token("nora");
    const before = await call("GET", "/v0/wallet/user-status", nora);
    expect(before.body).toEqual({ party_id: "", user_onboarded: false, user_wallet_installed: false, has_featured_app_right: false });
    const r = await call("POST", "/v0/register", nora);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ party_id: `nora::${namespace}` });
    expect((await call("POST", "/v0/register", nora, {}, true)).body).toEqual(r.body);
    expect((await call("POST", "/v0/register", nora, "null")).body).toEqual(r.body);
    expect((await call("GET", "/v0/wallet/user-status", nora)).body.user_onboarded).toBe(true);
    expect((await call("GET", "/v0/admin/users", operator)).body.usernames).toContain("nora");
  });

  it("never grants a right: a user whose primary party it cannot act as is refused, and nothing changes", async () => {
    const admin = await s.adminToken();
    const dso = s.server.network.parties.dso;
    const bobParty = (await call("POST", "/v0/admin/users", operator, { name: "reg-bob" })).body.party_id as string;
    // Only the operator (POST /v0/admin/users) gives a user a wallet for an existing party.
    for (const [user, party, rights] of [
      ["reg-dso-reader", dso, [{ kind: { CanReadAs: { value: { party: dso } } } }]],
      ["reg-bob-reader", bobParty, [{ kind: { CanReadAs: { value: { party: bobParty } } } }]],
      ["reg-no-rights", bobParty, []],
    ] as const) {
      const created = await s.json("POST", "/v2/users", { user: { id: user, primaryParty: party }, rights }, admin);
      expect(created.status, created.text).toBe(200);
      const r = await call("POST", "/v0/register", await s.token(user));
      expect([user, r.status]).toEqual([user, 403]);
      expect(r.body.error).toMatch(/cannot act as party/);
      const after = await s.json("GET", `/v2/users/${user}/rights`, undefined, admin);
      expect(after.body.rights.some((x: Record<string, unknown>) => "CanActAs" in (x.kind as object))).toBe(false);
      expect((await call("GET", "/v0/wallet/user-status", await s.token(user))).body.user_onboarded).toBe(false);
    }
    // Nor does the operator onboard a wallet for the network's DSO party.
    const dsoWallet = await call("POST", "/v0/admin/users", operator, { name: "reg-dso", party_id: dso });
    expect([dsoWallet.status, dsoWallet.body.error]).toEqual([403, `party ${dso} is the DSO party of the network, not a wallet party`]);
    expect((await s.json("GET", "/v2/users/reg-dso", undefined, admin)).status).toBe(404);
    // Nor when the DSO party is the user's primary party (the "reg-dso-reader" above), and nothing is granted.
    const viaPrimary = await call("POST", "/v0/admin/users", operator, { name: "reg-dso-reader" });
    expect([viaPrimary.status, viaPrimary.body.error]).toEqual([403, `party ${dso} is the DSO party of the network, not a wallet party`]);
    expect((await s.json("GET", "/v2/users/reg-dso-reader/rights", undefined, admin)).body.rights).toEqual([{ kind: { CanReadAs: { value: { party: dso } } } }]);
    // One that can act as its primary party registers with it.
    const own = await s.json("POST", "/v2/users", { user: { id: "reg-bob-actor", primaryParty: bobParty }, rights: [{ kind: { CanActAs: { value: { party: bobParty } } } }] }, admin);
    expect(own.status, own.text).toBe(200);
    expect((await call("POST", "/v0/register", await s.token("reg-bob-actor"))).body).toEqual({ party_id: bobParty });
  });

  it("ends a wallet's use with its user's rights, and a deleted user's wallet is not registered back", async () => {
    const admin = await s.adminToken();
    const party = (await call("POST", "/v0/admin/users", operator, { name: "reg-frank" })).body.party_id as string;
    const frank = await s.token("reg-frank");
    expect((await call("GET", "/v0/wallet/balance", frank)).status).toBe(200);
    const revoked = await s.json("PATCH", "/v2/users/reg-frank/rights", { userId: "reg-frank", rights: [{ kind: { CanActAs: { value: { party } } } }] }, admin);
    expect(revoked.status, revoked.text).toBe(200);
    const refused = await call("GET", "/v0/wallet/balance", frank);
    expect([refused.status, refused.body.error]).toEqual([403, `User reg-frank may not act as party ${party}`]);
    expect((await call("POST", "/v0/wallet/tap", frank, { amount: "1" })).status).toBe(403);
    // Register gives nothing back; nor after the ledger user is deleted, or made again without rights.
    expect((await call("POST", "/v0/register", frank)).status).toBe(403);
    expect((await s.json("DELETE", "/v2/users/reg-frank", undefined, admin)).status).toBe(200);
    expect((await call("POST", "/v0/register", frank)).status).toBe(403);
    expect((await s.json("POST", "/v2/users", { user: { id: "reg-frank" }, rights: [] }, admin)).status).toBe(200);
    expect((await call("POST", "/v0/register", frank)).status).toBe(403);
    expect(await rightsOf("reg-frank")).toEqual([]);
  });

  it("needs a valid token and refuses unknown body fields", async () => {
    expect((await call("POST", "/v0/register", null)).status).toBe(401);
    expect((await call("GET", "/v0/wallet/user-status", null)).status).toBe(401);
    const extra = await call("POST", "/v0/register", await s.token("olga"), { name: "x" });
    expect(extra.status).toBe(400);
    expect((await s.json("GET", "/v2/users/olga")).status).toBe(404);
  });
});

describe("GET /v0/feature-support", () => {
  it("answers any authenticated user", async () => {
    const r = await call("GET", "/v0/feature-support", await s.token("someone"), undefined, true);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ token_standard: true, transfer_preapproval_description: true });
    expect((await call("GET", "/v0/feature-support", null)).status).toBe(401);
  });
});

describe("the WalletInstaller port", () => {
  it("installs every onboarded wallet (operator first), finishes a failed installation on retry, uninstalls on offboarding", async () => {
    const calls: string[] = [];
    let failNext = true;
    const installer: WalletInstaller = {
      async installWallet(party, user) {
        calls.push(`install ${user} ${party.split("::")[0]}`);
        if (user === "flaky" && failNext) {
          failNext = false;
          throw new Error("ledger hiccup with a secret detail");
        }
      },
      async uninstallWallet(party, user) {
        calls.push(`uninstall ${user} ${party.split("::")[0]}`);
      },
    };
    const dir = mkdtempSync(join(tmpdir(), "ccwallet-installer-"));
    const server = await startServer(loadConfig({ CCWALLET_DATA_DIR: dir, CCWALLET_HTTP_PORT: "0", CCWALLET_GRPC_PORT: "0", CCWALLET_LOG_LEVEL: "silent" }), {
      walletInstaller: () => installer,
    });
    try {
      const token = (user: string) => issueToken({ secret: server.secret, userId: user });
      const http = async (method: string, path: string, user: string) => {
        const res = await fetch(`http://127.0.0.1:${server.httpPort}${path}`, { method, headers: { authorization: `Bearer ${await token(user)}`, "content-type": "application/json" }, body: method === "POST" && !path.includes("offboard") ? JSON.stringify({ name: "flaky" }) : undefined });
        return { status: res.status, body: await res.json() };
      };
      expect(calls).toEqual(["install administrator administrator"]);
      const failed = await http("POST", "/v0/admin/users", "administrator");
      expect(failed).toEqual({ status: 500, body: { error: "internal server error" } });
      expect((await http("GET", "/v0/wallet/user-status", "flaky")).body).toMatchObject({ user_onboarded: true, user_wallet_installed: false });
      const retried = await http("POST", "/v0/admin/users", "administrator");
      expect(retried.status).toBe(200);
      expect((await http("GET", "/v0/wallet/user-status", "flaky")).body).toMatchObject({ user_onboarded: true, user_wallet_installed: true });
      await http("POST", "/v0/admin/users", "administrator"); // installed: not installed again
      expect((await http("POST", "/v0/admin/users/offboard?username=flaky", "administrator")).status).toBe(200);
      expect(calls).toEqual(["install administrator administrator", "install flaky flaky", "install flaky flaky", "uninstall flaky flaky"]);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeOpenApiConformance(() => log, {
  title: "every 200 body above conforms, and every error body is {error}",
  operations: [
    "validator-internal.yaml#getValidatorUserInfo",
    "validator-internal.yaml#listUsers",
    "validator-internal.yaml#offboardUser",
    "validator-internal.yaml#onboardUser",
    "validator-internal.yaml#register",
    "wallet-internal.yaml#featureSupport",
    "wallet-internal.yaml#getBalance",
    "wallet-internal.yaml#userStatus",
  ],
});
