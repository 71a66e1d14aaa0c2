/**
 * The JSON Ledger API over a real HTTP socket: the happy path a Canton JSON client walks, and the
 * error cases of every endpoint, each in Canton's shape and changing nothing.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT, ASSET, createIou, IOU, startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let alice: { party: string; user: string; token: string };
let bob: { party: string; user: string; token: string };

beforeAll(async () => {
  s = await startTestServer({ CCWALLET_HTTP_LIST_MAX_ELEMENTS: "50", CCWALLET_HTTP_MAX_BODY_BYTES: "65536" });
  alice = await s.partyUser("alice");
  bob = await s.partyUser("bob");
});
afterAll(() => s?.stop());

const wildcard = (party: string, shape = "TRANSACTION_SHAPE_ACS_DELTA") => ({
  eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } }, verbose: true },
  transactionShape: shape,
});

async function acs(party: string, token: string) {
  const r = await s.json("POST", "/v2/state/active-contracts", { eventFormat: { filtersByParty: { [party]: { cumulative: [] } } }, activeAtOffset: await ledgerEnd() }, token);
  expect(r.status).toBe(200);
  return (r.body as any[]).map((e) => e.contractEntry.JsActiveContract.createdEvent);
}

/** POSTs `bytes` of JSON-ish padding in 16 KiB chunks with Transfer-Encoding: chunked. */
function chunkedPost(path: string, bytes: number, token: string): Promise<{ status: number; body: any; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${s.http}${path}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" } }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, text }));
    });
    req.on("error", reject);
    req.write('{"padding":"');
    for (let sent = 0; sent < bytes; sent += 16_384) req.write("x".repeat(16_384));
    req.end('"}');
  });
}

async function ledgerEnd(): Promise<number> {
  return (await s.json("GET", "/v2/state/ledger-end")).body.offset;
}

describe("JSON Ledger API happy path", () => {
  it("serves the version and the participant id", async () => {
    const v = await s.json("GET", "/v2/version", undefined, null);
    expect(v.status).toBe(200);
    expect(v.body.version).toBe("3.4.12");
    const p = await s.json("GET", "/v2/parties/participant-id");
    expect(p.body.participantId).toMatch(/^PAR::ccwallet::1220[0-9a-f]{64}$/);
  });

  it("creates a contract and returns the transaction with Canton's JSON encoding", async () => {
    const r = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(alice.party, "12.5"), alice.token);
    expect(r.status).toBe(200);
    const tx = r.body.transaction;
    expect(typeof tx.offset).toBe("number");
    expect(tx.updateId).toMatch(/^1220[0-9a-f]{64}$/);
    expect(tx.events).toHaveLength(1);
    const created = tx.events[0].CreatedEvent;
    expect(created.templateId).toMatch(/^[0-9a-f]{64}:Ccwallet\.Demo\.Iou:Iou$/);
    expect(created.packageName).toBe("ccwallet-demo");
    expect(created.createArgument).toEqual({ issuer: alice.party, owner: alice.party, currency: "CC", amount: "12.5000000000", observers: [] });
    expect(created.signatories).toEqual([alice.party]);
    expect(created.witnessParties).toEqual([alice.party]);
    expect(created.offset).toBe(tx.offset);
    expect(created.nodeId).toBe(0);
    expect(created.createdAt).toBe(tx.effectiveAt);
    expect(tx.recordTime).toMatch(/Z$/);
  });

  it("exercises a choice: ACS_DELTA shows archive + creates, LEDGER_EFFECTS the exercise tree", async () => {
    const c = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(alice.party, "10"), alice.token);
    const cid = c.body.transaction.events[0].CreatedEvent.contractId;
    const split = (commandId: string, shape: string, contractId: string) => ({
      commands: {
        commands: [{ ExerciseCommand: { templateId: IOU, contractId, choice: "Iou_Split", choiceArgument: { splitAmount: "3" } } }],
        commandId,
        actAs: [alice.party],
      },
      transactionFormat: wildcard(alice.party, shape),
    });
    const r = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", split("split-1", "TRANSACTION_SHAPE_ACS_DELTA", cid), alice.token);
    expect(r.status).toBe(200);
    const kinds = r.body.transaction.events.map((e: object) => Object.keys(e)[0]);
    // Events come in node order: the exercise (archive) is node 0, its creates follow.
    expect(kinds).toEqual(["ArchivedEvent", "CreatedEvent", "CreatedEvent"]);
    const amounts = r.body.transaction.events.filter((e: any) => e.CreatedEvent).map((e: any) => e.CreatedEvent.createArgument.amount);
    expect(amounts).toEqual(["3.0000000000", "7.0000000000"]);
    expect(r.body.transaction.events[0].ArchivedEvent.contractId).toBe(cid);
    expect(r.body.transaction.events[0].ArchivedEvent.implementedInterfaces).toHaveLength(1);

    const rest = r.body.transaction.events[2].CreatedEvent.contractId;
    const le = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", split("split-2", "TRANSACTION_SHAPE_LEDGER_EFFECTS", rest), alice.token);
    expect(le.status).toBe(200);
    const [ex, c1, c2] = le.body.transaction.events;
    expect(ex.ExercisedEvent).toMatchObject({ nodeId: 0, lastDescendantNodeId: 2, choice: "Iou_Split", consuming: true, contractId: rest, acsDelta: true });
    expect(ex.ExercisedEvent.choiceArgument).toEqual({ splitAmount: "3.0000000000" });
    expect(ex.ExercisedEvent.exerciseResult).toEqual({ splitCid: c1.CreatedEvent.contractId, restCid: c2.CreatedEvent.contractId });
    expect(ex.ExercisedEvent.actingParties).toEqual([alice.party]);
    expect([c1.CreatedEvent.nodeId, c2.CreatedEvent.nodeId]).toEqual([1, 2]);
  });

  it("streams completions as a bare array, honouring limit and beginExclusive", async () => {
    const before = await ledgerEnd();
    const a = await s.json("POST", "/v2/commands/submit-and-wait", createIou(alice.party, "1", alice.party, "cmpl-1").commands, alice.token);
    expect(a.status).toBe(200);
    expect(a.body.completionOffset).toBe(before + 1);
    const r = await s.json("POST", `/v2/commands/completions?stream_idle_timeout_ms=200`, { parties: [alice.party], beginExclusive: before }, alice.token);
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    const c = r.body[0].completionResponse.Completion.value;
    expect(c).toMatchObject({ commandId: "cmpl-1", userId: alice.user, actAs: [alice.party], offset: before + 1, updateId: a.body.updateId });
    expect(c.synchronizerTime.synchronizerId).toMatch(/^global-domain::/);
    const limited = await s.json("POST", `/v2/commands/completions?limit=1&stream_idle_timeout_ms=200`, { parties: [alice.party], beginExclusive: 0 }, alice.token);
    expect(limited.body).toHaveLength(1);
  });

  it("answers 413 when a list exceeds the server limit", async () => {
    for (let i = 0; i < 52; i++) await s.json("POST", "/v2/commands/submit-and-wait", createIou(bob.party, "1").commands, bob.token);
    const r = await s.json("POST", `/v2/commands/completions?stream_idle_timeout_ms=200`, { parties: [bob.party] }, bob.token);
    expect(r.status).toBe(413);
    const ok = await s.json("POST", `/v2/commands/completions?limit=50&stream_idle_timeout_ms=200`, { parties: [bob.party] }, bob.token);
    expect(ok.status).toBe(200);
    expect(ok.body).toHaveLength(50);
  });

  it("async submit yields a completion at its own offset", async () => {
    const before = await ledgerEnd();
    const r = await s.json("POST", "/v2/commands/async/submit", createIou(alice.party, "2", alice.party, "async-1").commands, alice.token);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    const c = await s.json("POST", `/v2/commands/completions?limit=1&stream_idle_timeout_ms=2000`, { parties: [alice.party], beginExclusive: before }, alice.token);
    expect(c.body[0].completionResponse.Completion.value.commandId).toBe("async-1");
  });

  it("answers an async submit once its completion is durable (acknowledged means durable)", async () => {
    // Found by a helper's kill -9 right after such answers: one command a kill had no completion ever.
    const store = s.server.store;
    const carol = await s.partyUser("async-durable");
    const before = await ledgerEnd();
    const ids = Array.from({ length: 40 }, (_, i) => `async-durable-${i}`);
    const missing: string[] = [];
    await Promise.all(
      ids.map(async (id) => {
        const r = await s.json("POST", "/v2/commands/async/submit", createIou(carol.party, "1", carol.party, id).commands, carol.token);
        expect(r.status, r.text).toBe(200);
        // Read the store the moment the answer is in: the completion must already be there.
        const completions = await store.completions(BigInt(before), await store.ledgerEnd(), 1000);
        if (!completions.some((c) => c.commandId === id)) missing.push(id);
      }),
    );
    expect(missing).toEqual([]);
  });

  it("fetches an update by id and by offset, and reads the update stream", async () => {
    const r = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(alice.party, "4"), alice.token);
    const { updateId, offset } = r.body.transaction;
    const byId = await s.json("POST", "/v2/updates/update-by-id", { updateId, updateFormat: { includeTransactions: wildcard(alice.party) } }, alice.token);
    expect(byId.status).toBe(200);
    expect(byId.body.update.Transaction.value.updateId).toBe(updateId);
    expect(byId.body.update.Transaction.value.offset).toBe(offset);
    const byOffset = await s.json("POST", "/v2/updates/update-by-offset", { offset, updateFormat: { includeTransactions: wildcard(alice.party) } }, alice.token);
    expect(byOffset.body.update.Transaction.value.updateId).toBe(updateId);
    // Bob is not a stakeholder: for him the update does not exist.
    const hidden = await s.json("POST", "/v2/updates/update-by-id", { updateId, updateFormat: { includeTransactions: wildcard(bob.party) } }, bob.token);
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe("UPDATE_NOT_FOUND");
    const stream = await s.json("POST", "/v2/updates?stream_idle_timeout_ms=200", { beginExclusive: offset - 1, endInclusive: offset, updateFormat: { includeTransactions: wildcard(alice.party) } }, alice.token);
    expect(stream.status).toBe(200);
    expect(stream.body).toHaveLength(1);
    expect(stream.body[0].update.Transaction.value.updateId).toBe(updateId);
  });

  it("lists active contracts with template and interface filters, views and blobs", async () => {
    const carol = await s.partyUser("carol");
    await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(carol.party, "5"), carol.token);
    const acct = await s.json(
      "POST",
      "/v2/commands/submit-and-wait-for-transaction",
      { commands: { commands: [{ CreateCommand: { templateId: ACCOUNT, createArguments: { owner: carol.party, id: "main", balance: "0" } } }], commandId: "acct-1", actAs: [carol.party] } },
      carol.token,
    );
    expect(acct.status).toBe(200);
    const all = await acs(carol.party, carol.token);
    expect(all).toHaveLength(2);
    const byIface = await s.json(
      "POST",
      "/v2/state/active-contracts",
      {
        eventFormat: {
          filtersByParty: {
            [carol.party]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: ASSET, includeInterfaceView: true, includeCreatedEventBlob: true } } } }] },
          },
        },
        activeAtOffset: await ledgerEnd(),
      },
      carol.token,
    );
    expect(byIface.status).toBe(200);
    expect(byIface.body).toHaveLength(1);
    const ev = byIface.body[0].contractEntry.JsActiveContract.createdEvent;
    expect(ev.interfaceViews[0].viewValue).toEqual({ owner: carol.party, amount: "5.0000000000", description: "5.0000000000 CC" });
    expect(ev.createdEventBlob.length).toBeGreaterThan(10);
  });

  it("exercises by key and through an interface", async () => {
    const dave = await s.partyUser("dave");
    const create = { CreateCommand: { templateId: ACCOUNT, createArguments: { owner: dave.party, id: "k1", balance: "1" } } };
    expect((await s.json("POST", "/v2/commands/submit-and-wait", { commands: [create], commandId: "k-1", actAs: [dave.party] }, dave.token)).status).toBe(200);
    const dup = await s.json("POST", "/v2/commands/submit-and-wait", { commands: [create], commandId: "k-2", actAs: [dave.party] }, dave.token);
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("DUPLICATE_CONTRACT_KEY");
    const byKey = await s.json(
      "POST",
      "/v2/commands/submit-and-wait-for-transaction",
      {
        commands: {
          commands: [{ ExerciseByKeyCommand: { templateId: ACCOUNT, contractKey: { owner: dave.party, id: "k1" }, choice: "Account_Deposit", choiceArgument: { amount: "2.5" } } }],
          commandId: "k-3",
          actAs: [dave.party],
        },
      },
      dave.token,
    );
    expect(byKey.status).toBe(200);
    expect(byKey.body.transaction.events[1].CreatedEvent.createArgument.balance).toBe("3.5000000000");
    const iou = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(dave.party, "9"), dave.token);
    const cid = iou.body.transaction.events[0].CreatedEvent.contractId;
    const viaIface = await s.json(
      "POST",
      "/v2/commands/submit-and-wait-for-transaction",
      {
        commands: { commands: [{ ExerciseCommand: { templateId: ASSET, contractId: cid, choice: "Asset_Describe", choiceArgument: {} } }], commandId: "i-1", actAs: [dave.party] },
        transactionFormat: wildcard(dave.party, "TRANSACTION_SHAPE_LEDGER_EFFECTS"),
      },
      dave.token,
    );
    expect(viaIface.status).toBe(200);
    const ex = viaIface.body.transaction.events[0].ExercisedEvent;
    expect(ex.interfaceId).toMatch(/:Ccwallet\.Demo\.Asset:Asset$/);
    expect(ex.exerciseResult).toBe(`9.0000000000 CC owed by ${dave.party}`);
    expect(ex.consuming).toBe(false);
  });

  it("accepts a disclosed contract from its created event blob", async () => {
    const erin = await s.partyUser("erin");
    const frank = await s.partyUser("frank");
    // An Iou issued by erin to frank; frank can transfer it; a stranger cannot even see it.
    const r = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", createIou(erin.party, "3", frank.party), erin.token);
    const cid = r.body.transaction.events[0].CreatedEvent.contractId;
    const g = await s.partyUser("grace");
    const inspect = (disclosed: unknown[]) => ({
      commands: [{ ExerciseCommand: { templateId: IOU, contractId: cid, choice: "Iou_Inspect", choiceArgument: {} } }],
      commandId: `insp-${disclosed.length}`,
      actAs: [g.party],
      disclosedContracts: disclosed,
    });
    const hidden = await s.json("POST", "/v2/commands/submit-and-wait", inspect([]), g.token);
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe("CONTRACT_NOT_FOUND");
    const blobs = await s.json(
      "POST",
      "/v2/state/active-contracts",
      { eventFormat: { filtersByParty: { [frank.party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] } } }, activeAtOffset: await ledgerEnd() },
      frank.token,
    );
    const blob = blobs.body[0].contractEntry.JsActiveContract.createdEvent.createdEventBlob;
    // Disclosure makes the contract visible; grace still is not the controller, so authorization fails.
    const disclosed = await s.json("POST", "/v2/commands/submit-and-wait", inspect([{ createdEventBlob: blob, contractId: cid, templateId: IOU }]), g.token);
    expect(disclosed.status).toBe(400);
    expect(disclosed.body.code).toBe("DAML_AUTHORIZATION_ERROR");
  });

  it("manages users and rights", async () => {
    const created = await s.json("POST", "/v2/users", { user: { id: "ursula", primaryParty: alice.party }, rights: [{ kind: { CanReadAs: { value: { party: alice.party } } } }] });
    expect(created.status).toBe(200);
    expect((await s.json("GET", "/v2/users/ursula")).body.user).toMatchObject({ id: "ursula", primaryParty: alice.party, isDeactivated: false });
    const listed = await s.json("GET", "/v2/users");
    expect(listed.body.users.map((u: { id: string }) => u.id)).toContain("ursula");
    const granted = await s.json("POST", "/v2/users/ursula/rights", { userId: "ursula", rights: [{ kind: { CanActAs: { value: { party: alice.party } } } }, { kind: { CanReadAs: { value: { party: alice.party } } } }] });
    expect(granted.body.newlyGrantedRights).toEqual([{ kind: { CanActAs: { value: { party: alice.party } } } }]);
    const rights = await s.json("GET", "/v2/users/ursula/rights");
    expect(rights.body.rights).toHaveLength(2);
    const revoked = await s.json("PATCH", "/v2/users/ursula/rights", { userId: "ursula", rights: [{ kind: { CanActAs: { value: { party: alice.party } } } }] });
    expect(revoked.body.newlyRevokedRights).toHaveLength(1);
    const me = await s.json("GET", "/v2/authenticated-user", undefined, await s.token("ursula"));
    expect(me.body.user.id).toBe("ursula");
    expect((await s.json("DELETE", "/v2/users/ursula")).status).toBe(200);
    expect((await s.json("GET", "/v2/users/ursula")).status).toBe(404);
  });

  it("refuses a user assigned to another identity provider: this node's tokens are its default provider's", async () => {
    const created = await s.json("POST", "/v2/users", {
      user: { id: "idp-erin", primaryParty: alice.party, identityProviderId: "idp-elsewhere" },
      rights: [{ kind: { CanReadAs: { value: { party: alice.party } } } }],
    });
    expect(created.status, created.text).toBe(200);
    const erin = await s.token("idp-erin");
    const acs = await s.json("POST", "/v2/state/active-contracts", { eventFormat: { filtersByParty: { [alice.party]: { cumulative: [] } } }, activeAtOffset: await ledgerEnd() }, erin);
    expect(acs.status).toBe(403);
    expect(acs.body.cause).toMatch(/assigned to another identity provider/);
    expect((await s.json("GET", "/v2/authenticated-user", undefined, erin)).status).toBe(403);
  });

  it("lists and gets parties", async () => {
    const list = await s.json("GET", "/v2/parties");
    expect(list.body.partyDetails.map((p: { party: string }) => p.party)).toContain(alice.party);
    const one = await s.json("GET", `/v2/parties/${encodeURIComponent(alice.party)}`);
    expect(one.body.partyDetails).toEqual([{ party: alice.party, isLocal: true, localMetadata: { resourceVersion: "0", annotations: {} }, identityProviderId: "" }]);
  });
});

describe("JSON Ledger API errors: Canton's shape, nothing changed", () => {
  async function rejectedWithoutEffect(call: () => Promise<{ status: number; body: any; text: string }>) {
    const acsBefore = (await acs(alice.party, alice.token)).map((c) => c.contractId).sort();
    const r = await call();
    const acsAfter = (await acs(alice.party, alice.token)).map((c) => c.contractId).sort();
    expect(acsAfter).toEqual(acsBefore);
    return r;
  }
  const submit = (body: unknown, token: string | null = alice.token) => s.json("POST", "/v2/commands/submit-and-wait-for-transaction", body, token);

  it("401 without, with an expired and with a forged token", async () => {
    for (const token of [null, await s.token(alice.user, -60), alice.token.slice(0, -3) + "abc", "not-a-jwt"]) {
      const r = await rejectedWithoutEffect(() => submit(createIou(alice.party), token));
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ code: "UNAUTHENTICATED", grpcCodeValue: 16, errorCategory: 6 });
    }
  });

  it("403 when acting as a party the user may not act as, or for admin calls", async () => {
    const r = await rejectedWithoutEffect(() => submit(createIou(bob.party), alice.token));
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("PERMISSION_DENIED");
    expect((await s.json("POST", "/v2/parties", { partyIdHint: "x" }, alice.token)).status).toBe(403);
    expect((await s.json("GET", "/v2/users", undefined, alice.token)).status).toBe(403);
    expect((await s.json("GET", "/v2/users/nobody", undefined, await s.token("nobody"))).status).toBe(403);
  });

  it("400 INVALID_ARGUMENT for a Daml value nested past 100 levels, before it can exhaust the stack", async () => {
    const deep = "[".repeat(30_000) + "]".repeat(30_000);
    const body = JSON.stringify(createIou(alice.party)).replace('"observers":[]', `"observers":${deep}`);
    const r = await rejectedWithoutEffect(() => submit(body));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "INVALID_ARGUMENT", grpcCodeValue: 3 });
    expect(r.body.cause).toContain("Provided value exceeds maximum nesting level of 100");
  });

  it("400 JsCantonError for undecodable bodies (issue #10: no more text/plain)", async () => {
    const bad = await rejectedWithoutEffect(() => submit("{not json"));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "INVALID_ARGUMENT", grpcCodeValue: 3, errorCategory: 8 });
    expect(bad.body.cause).toMatch(/^Invalid value for: body/);
    const twice = await rejectedWithoutEffect(() => submit(JSON.stringify(createIou(alice.party)).replace(/^\{/, '{"commands":{},')));
    expect(twice.status).toBe(400);
    expect(twice.body.cause).toMatch(/the key "commands" more than once/);
    const wrongShape = await rejectedWithoutEffect(() => submit({ commands: { commands: "nope", commandId: "x", actAs: [alice.party] } }));
    expect(wrongShape.status).toBe(400);
    const unknownField = await rejectedWithoutEffect(() => submit({ ...createIou(alice.party), surprise: 1 }));
    expect(unknownField.status).toBe(400);
  });

  it("400 COMMAND_PREPROCESSING_FAILED for Daml values of the wrong type", async () => {
    for (const amount of [{}, "ten", "1.12345678901", true]) {
      const r = await rejectedWithoutEffect(() => submit(createIou(alice.party, amount as never)));
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("COMMAND_PREPROCESSING_FAILED");
      expect(r.body.grpcCodeValue).toBe(3);
    }
    const missing = await rejectedWithoutEffect(() =>
      submit({ commands: { commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: alice.party } } }], commandId: "m", actAs: [alice.party] } }),
    );
    expect(missing.body.cause).toMatch(/owner: missing field/);
  });

  it("400 for missing command fields, 404 for unknown templates and contracts", async () => {
    const noCommandId = await rejectedWithoutEffect(() => submit({ commands: { ...createIou(alice.party).commands, commandId: "" } }));
    expect(noCommandId.status).toBe(400);
    expect(noCommandId.body.code).toBe("MISSING_FIELD");
    const unknownTemplate = await rejectedWithoutEffect(() =>
      submit({ commands: { commands: [{ CreateCommand: { templateId: "#nope:A:B", createArguments: {} } }], commandId: "u", actAs: [alice.party] } }),
    );
    expect(unknownTemplate.status).toBe(404);
    expect(unknownTemplate.body.code).toBe("TEMPLATES_OR_INTERFACES_NOT_FOUND");
    const unknownContract = await rejectedWithoutEffect(() =>
      submit({
        commands: { commands: [{ ExerciseCommand: { templateId: IOU, contractId: "00" + "ab".repeat(32), choice: "Iou_Inspect", choiceArgument: {} } }], commandId: "uc", actAs: [alice.party] },
      }),
    );
    expect(unknownContract.status).toBe(404);
    expect(unknownContract.body.code).toBe("CONTRACT_NOT_FOUND");
    // Authorized first (Canton's order): a caller without the right to act as a party learns
    // nothing about it, not even whether it exists; the admin needs CanActAs like anyone. (No
    // user can hold a right for an unknown party: user management refuses to grant one.)
    const ghost = "ghost::1220" + "00".repeat(32);
    for (const token of [bob.token, await s.adminToken()]) {
      const r = await rejectedWithoutEffect(() => submit(createIou(ghost), token));
      expect(r.status).toBe(403);
      expect(r.body.code).toBe("PERMISSION_DENIED");
    }
    const prepared = await rejectedWithoutEffect(() =>
      s.json("POST", "/v2/interactive-submission/prepare", { commands: createIou(ghost).commands.commands, commandId: "ghost-prepare", actAs: [ghost] }, bob.token),
    );
    expect(prepared.status).toBe(403);
    expect(prepared.body.code).toBe("PERMISSION_DENIED");
    const granted = await s.json("POST", "/v2/users", { user: { id: "ghost-actor", primaryParty: "" }, rights: [{ kind: { CanActAs: { value: { party: ghost } } } }] });
    expect(granted.body.code).toBe("PARTY_NOT_KNOWN_ON_LEDGER");
  });

  it("400 DAML_AUTHORIZATION_ERROR when a signatory did not authorize", async () => {
    const r = await rejectedWithoutEffect(() =>
      submit({ commands: { commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: bob.party, owner: alice.party, currency: "CC", amount: "1", observers: [] } } }], commandId: "auth", actAs: [alice.party] } }),
    );
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("DAML_AUTHORIZATION_ERROR");
  });

  it("409 DUPLICATE_COMMAND for a resubmitted command id, with nothing committed", async () => {
    const first = await submit(createIou(alice.party, "1", alice.party, "dup-1"));
    expect(first.status).toBe(200);
    const again = await rejectedWithoutEffect(() => submit(createIou(alice.party, "1", alice.party, "dup-1")));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("DUPLICATE_COMMAND");
    // The correlation id is the submission id, as in the completion.
    const c = await s.json("POST", "/v2/commands/completions?stream_idle_timeout_ms=200", { parties: [alice.party], beginExclusive: (await ledgerEnd()) - 1 }, alice.token);
    expect(c.body[0].completionResponse.Completion.value.submissionId).toBe(again.body.correlationId);
  });

  it("exactly one of two concurrent spends of the same contract commits", async () => {
    const c = await submit(createIou(alice.party, "10"));
    const cid = c.body.transaction.events[0].CreatedEvent.contractId;
    const spend = (i: number) =>
      submit({ commands: { commands: [{ ExerciseCommand: { templateId: IOU, contractId: cid, choice: "Iou_Transfer", choiceArgument: { newOwner: alice.party } } }], commandId: `spend-${i}`, actAs: [alice.party] } });
    const results = await Promise.all([spend(1), spend(2), spend(3), spend(4)]);
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    // Found gone at interpretation or at commit: NOT_FOUND either way, as in Canton (only locked
    // contracts are contention), so a client that retries on ABORTED/409 does not retry these.
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(404);
      expect(["CONTRACT_NOT_FOUND", "LOCAL_VERDICT_INACTIVE_CONTRACTS"]).toContain(r.body.code);
      expect(r.body).toMatchObject({ errorCategory: 11, grpcCodeValue: 5 });
      expect(r.body).not.toHaveProperty("retryInfo");
    }
    const active = (await acs(alice.party, alice.token)).map((e) => e.contractId);
    expect(active).not.toContain(cid);
    expect(active.filter((x) => x === ok[0].body.transaction.events.find((e: any) => e.CreatedEvent).CreatedEvent.contractId)).toHaveLength(1);
  });

  it("413 for oversized bodies, 404/405 for unknown routes", async () => {
    const big = await rejectedWithoutEffect(() => submit({ ...createIou(alice.party), padding: "x".repeat(70_000) }));
    expect(big.status).toBe(413);
    expect(big.body.cause).toMatch(/^Request entity too large/);
    const nope = await s.json("GET", "/v2/nope");
    expect(nope.status).toBe(404);
    expect(nope.body).toMatchObject({ code: "NOT_FOUND", grpcCodeValue: 5 });
    const wrongMethod = await s.json("DELETE", "/v2/version");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.code).toBe("INVALID_ARGUMENT");
  });

  it("413 for an oversized chunked body (no Content-Length), on /v2 and /v0 alike, not a reset", async () => {
    for (const path of ["/v2/commands/submit-and-wait-for-transaction", "/v0/register"]) {
      const r = await rejectedWithoutEffect(() => chunkedPost(path, 200_000, alice.token));
      expect(r.status).toBe(413);
    }
  });

  it("431 for oversized headers, with a body in each API's error shape", async () => {
    const get = (path: string) =>
      new Promise<{ status: number; type: string; body: any }>((resolve, reject) => {
        const req = http.request(`${s.http}${path}`, { headers: { "x-padding": "x".repeat(64 * 1024) } }, (res) => {
          let text = "";
          res.on("data", (c: Buffer) => (text += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"] ?? "", body: JSON.parse(text) }));
        });
        req.on("error", reject);
        req.end();
      });
    const canton = await get("/v2/version");
    expect(canton.status).toBe(431);
    expect(canton.type).toBe("application/json");
    expect(canton.body).toMatchObject({ code: "INVALID_ARGUMENT", cause: "Request header fields too large", grpcCodeValue: 3 });
    const splice = await get("/v0/wallet/balance");
    expect(splice.status).toBe(431);
    expect(splice.body).toEqual({ error: "Request header fields too large" });
  });

  it("415 for a body that is not sent as JSON; JSON with parameters and no Content-Type are fine", async () => {
    const post = (type: string) =>
      fetch(`${s.http}/v2/commands/submit-and-wait-for-transaction`, {
        method: "POST",
        headers: { authorization: `Bearer ${alice.token}`, "content-type": type },
        body: JSON.stringify(createIou(alice.party)),
      });
    const plain = await rejectedWithoutEffect(async () => {
      const r = await post("text/plain");
      const text = await r.text();
      return { status: r.status, body: JSON.parse(text), text };
    });
    expect(plain.status).toBe(415);
    expect(plain.body).toMatchObject({ code: "INVALID_ARGUMENT", cause: expect.stringMatching(/Unsupported Content-Type "text\/plain"/) });
    expect((await post("application/json; charset=utf-8")).status).toBe(200);
    // fetch would add text/plain to a string body; node:http sends none.
    const untyped = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${s.http}/v2/commands/submit-and-wait-for-transaction`, { method: "POST", headers: { authorization: `Bearer ${alice.token}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end(JSON.stringify(createIou(alice.party)));
    });
    expect(untyped).toBe(200);
  });

  it("pages users with opaque tokens and refuses a garbage pageToken with INVALID_ARGUMENT", async () => {
    for (const id of ["page-a", "page-b", "page-c"]) expect((await s.json("POST", "/v2/users", { user: { id, primaryParty: "" }, rights: [] })).status).toBe(200);
    const seen: string[] = [];
    let token = "";
    do {
      const r = await s.json("GET", `/v2/users?pageSize=2${token ? `&pageToken=${encodeURIComponent(token)}` : ""}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.users.map((u: { id: string }) => u.id));
      token = r.body.nextPageToken;
    } while (token);
    expect(seen).toEqual(expect.arrayContaining(["page-a", "page-b", "page-c"]));
    expect(new Set(seen).size).toBe(seen.length);
    for (const garbage of ["%%garbage", "page-a", "YQ=="]) {
      const r = await s.json("GET", `/v2/users?pageToken=${encodeURIComponent(garbage)}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "INVALID_ARGUMENT", cause: expect.stringMatching(/Invalid page token/) });
    }
  });

  it("404 for unknown users and update ids; 400 for bad offsets", async () => {
    expect((await s.json("GET", "/v2/users/nobody")).body.code).toBe("USER_NOT_FOUND");
    const u = await s.json("POST", "/v2/updates/update-by-id", { updateId: "1220deadbeef", updateFormat: { includeTransactions: wildcard(alice.party) } }, alice.token);
    expect(u.status).toBe(404);
    const far = await s.json("POST", "/v2/commands/completions?stream_idle_timeout_ms=100", { parties: [alice.party], beginExclusive: 1_000_000 }, alice.token);
    expect(far.status).toBe(400);
    expect(far.body.code).toBe("OFFSET_AFTER_LEDGER_END");
    const noParties = await s.json("POST", "/v2/commands/completions?stream_idle_timeout_ms=100", { parties: [] }, alice.token);
    expect(noParties.status).toBe(400);
    // An update stream's end past the ledger end is refused as its begin is (it used to wait for it).
    const end = Number((await s.json("GET", "/v2/state/ledger-end", undefined, alice.token)).body.offset);
    const updates = (endInclusive: number) =>
      s.json("POST", "/v2/updates?stream_idle_timeout_ms=100", { beginExclusive: 0, endInclusive, updateFormat: { includeTransactions: wildcard(alice.party) } }, alice.token);
    const pastEnd = await updates(end + 5);
    expect(pastEnd.status, pastEnd.text).toBe(400);
    expect(pastEnd.body).toMatchObject({ code: "OFFSET_AFTER_LEDGER_END", cause: `End offset (${end + 5}) is after ledger end (${end})` });
    expect((await updates(end)).status).toBe(200);
  });
});
