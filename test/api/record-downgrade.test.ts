/**
 * Daml-LF's upgrade rule on the Ledger API: a record may carry fields its template's version lacks
 * when they are None (a client built against a newer package, like the wallet SDK's `lock: null`
 * in a token-standard transfer); they are dropped. A set extra field is refused and creates nothing.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CommandService } from "../../gen/com/daml/ledger/api/v2/command_service_pb.js";
import type { RecordFieldSchema } from "../../gen/com/daml/ledger/api/v2/value_pb.js";
import { createIou, startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let alice: { party: string; user: string; token: string };
beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("dg-alice");
});
afterAll(() => s?.stop());

const withExtra = (extra: unknown, commandId: string) => {
  const req = createIou(alice.party, "4", alice.party, commandId);
  const create = req.commands.commands[0].CreateCommand;
  return { commands: { ...req.commands, commands: [{ CreateCommand: { ...create, createArguments: { ...create.createArguments, lock: extra } } }] } };
};

describe("extra record fields", () => {
  it("JSON: a None extra field is dropped, a set one is refused and changes nothing", async () => {
    const ok = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", withExtra(null, "dg-1"), alice.token);
    expect(ok.status, ok.text).toBe(200);
    const args = ok.body.transaction.events[0].CreatedEvent.createArgument;
    expect(args).toMatchObject({ amount: "4.0000000000", owner: alice.party });
    expect("lock" in args).toBe(false);

    const end = (await s.json("GET", "/v2/state/ledger-end")).body.offset;
    const bad = await s.json("POST", "/v2/commands/submit-and-wait-for-transaction", withExtra({ holders: [] }, "dg-2"), alice.token);
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/lock/);
    expect((await s.json("GET", "/v2/state/ledger-end")).body.offset).toBe(end);
  });

  it("gRPC: a labelled extra field holding None is dropped", async () => {
    const client = createClient(CommandService, createGrpcTransport({ baseUrl: s.grpc }));
    const p = alice.party;
    const fields: MessageInitShape<typeof RecordFieldSchema>[] = [
      { label: "issuer", value: { sum: { case: "party" as const, value: p } } },
      { label: "owner", value: { sum: { case: "party" as const, value: p } } },
      { label: "currency", value: { sum: { case: "text" as const, value: "CC" } } },
      { label: "amount", value: { sum: { case: "numeric" as const, value: "2" } } },
      { label: "observers", value: { sum: { case: "list" as const, value: { elements: [] } } } },
      { label: "lock", value: { sum: { case: "optional" as const, value: {} } } },
    ];
    const r = await client.submitAndWaitForTransaction(
      { commands: { commandId: "dg-3", actAs: [p], commands: [{ command: { case: "create", value: { templateId: { packageId: "#ccwallet-demo", moduleName: "Ccwallet.Demo.Iou", entityName: "Iou" }, createArguments: { fields } } } }] } },
      { headers: { authorization: `Bearer ${alice.token}` } },
    );
    const created = r.transaction?.events[0]?.event;
    expect(created?.case).toBe("created");
    expect(created?.case === "created" ? created.value.createArguments?.fields.map((f) => f.label) : []).toEqual(["issuer", "owner", "currency", "amount", "observers"]);
  });
});
