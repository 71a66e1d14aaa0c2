/**
 * The gRPC Ledger API over real HTTP/2 sockets, called by two independent stacks:
 * @grpc/grpc-js with the protos loaded from proto/ (what a Java/Python client sees on the wire),
 * and the buf-generated Connect client.
 */
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CommandCompletionService } from "../../gen/com/daml/ledger/api/v2/command_completion_service_pb.js";
import { CommandService } from "../../gen/com/daml/ledger/api/v2/command_service_pb.js";
import { TimeService } from "../../gen/com/daml/ledger/api/v2/testing/time_service_pb.js";
import { TransactionShape } from "../../gen/com/daml/ledger/api/v2/transaction_filter_pb.js";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

function protoFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? protoFiles(p) : p.endsWith(".proto") ? [p.slice("proto/".length)] : [];
  });
}

const pkg = grpc.loadPackageDefinition(
  protoLoader.loadSync(protoFiles("proto/com"), { includeDirs: ["proto"], keepCase: false, longs: String, enums: String, defaults: true, oneofs: true }),
) as any;
const v2 = pkg.com.daml.ledger.api.v2;

let s: TestServer;
let adminMeta: grpc.Metadata;
const meta = (token: string) => {
  const m = new grpc.Metadata();
  m.set("authorization", `Bearer ${token}`);
  return m;
};
function unary<T>(client: any, method: string, req: unknown, md: grpc.Metadata): Promise<T> {
  return new Promise((resolve, reject) => client[method](req, md, (err: grpc.ServiceError | null, res: T) => (err ? reject(err) : resolve(res))));
}

beforeAll(async () => {
  s = await startTestServer({ CCWALLET_TIME: "static" });
  adminMeta = meta(await s.adminToken());
});
afterAll(() => s?.stop());

const address = () => `127.0.0.1:${s.server.grpcPort}`;
const text = (v: string) => ({ text: v });
const iouRecord = (party: string, amount: string) => ({
  fields: [
    { label: "issuer", value: { party } },
    { label: "owner", value: { party } },
    { label: "currency", value: text("CC") },
    { label: "amount", value: { numeric: amount } },
    { label: "observers", value: { list: { elements: [] } } },
  ],
});
/** The same record in protobuf-es init form, for the Connect client. */
const iouInit = (party: string, amount: string) => ({
  fields: [
    { label: "issuer", value: { sum: { case: "party" as const, value: party } } },
    { label: "owner", value: { sum: { case: "party" as const, value: party } } },
    { label: "currency", value: { sum: { case: "text" as const, value: "CC" } } },
    { label: "amount", value: { sum: { case: "numeric" as const, value: amount } } },
    { label: "observers", value: { sum: { case: "list" as const, value: { elements: [] } } } },
  ],
});
const IOU_ID = { packageId: "#ccwallet-demo", moduleName: "Ccwallet.Demo.Iou", entityName: "Iou" };

describe("gRPC via @grpc/grpc-js and the protos in proto/", () => {
  it("allocates a party, creates a user, submits, streams the completion and fetches the update", async () => {
    const parties = new v2.admin.PartyManagementService(address(), grpc.credentials.createInsecure());
    const users = new v2.admin.UserManagementService(address(), grpc.credentials.createInsecure());
    const commands = new v2.CommandService(address(), grpc.credentials.createInsecure());
    const completions = new v2.CommandCompletionService(address(), grpc.credentials.createInsecure());
    const updates = new v2.UpdateService(address(), grpc.credentials.createInsecure());

    const allocated = await unary<any>(parties, "allocateParty", { partyIdHint: "gina" }, adminMeta);
    const party = allocated.partyDetails.party as string;
    expect(party).toMatch(/^gina::1220/);
    await unary(users, "createUser", { user: { id: "gina", primaryParty: party }, rights: [{ canActAs: { party } }] }, adminMeta);
    const token = meta(await s.token("gina"));

    const stream = completions.completionStream({ userId: "gina", parties: [party], beginExclusive: "0" }, token);
    const first = new Promise<any>((resolve, reject) => {
      // Offset checkpoints (the network's genesis offsets) may come before the completion.
      stream.on("data", (d: any) => d.completion && resolve(d));
      stream.on("error", reject);
    });

    const res = await unary<any>(
      commands,
      "submitAndWaitForTransaction",
      {
        commands: { commandId: "g-1", actAs: [party], commands: [{ create: { templateId: IOU_ID, createArguments: iouRecord(party, "7.25") } }] },
        transactionFormat: {
          eventFormat: { filtersByParty: { [party]: { cumulative: [{ wildcardFilter: {} }] } } },
          transactionShape: "TRANSACTION_SHAPE_ACS_DELTA",
        },
      },
      token,
    );
    const tx = res.transaction;
    expect(tx.events).toHaveLength(1);
    const created = tx.events[0].created;
    expect(created.templateId.moduleName).toBe("Ccwallet.Demo.Iou");
    expect(created.templateId.packageId).toMatch(/^[0-9a-f]{64}$/);
    expect(created.createArguments.fields.find((f: any) => f.label === "amount").value.numeric).toBe("7.2500000000");
    expect(created.signatories).toEqual([party]);

    const completion = await first;
    stream.cancel();
    expect(completion.completion.commandId).toBe("g-1");
    expect(completion.completion.updateId).toBe(tx.updateId);
    expect(completion.completion.offset).toBe(tx.offset);
    expect(completion.completion.status.code).toBe(0);

    const byId = await unary<any>(
      updates,
      "getUpdateById",
      { updateId: tx.updateId, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [party]: {} } }, transactionShape: "TRANSACTION_SHAPE_LEDGER_EFFECTS" } } },
      token,
    );
    expect(byId.transaction.events[0].created.contractId).toBe(created.contractId);
  });

  it("reports errors as gRPC status with Canton's message and ErrorInfo details", async () => {
    const commands = new v2.CommandService(address(), grpc.credentials.createInsecure());
    const noToken: grpc.ServiceError = await unary(commands, "submitAndWait", { commands: {} }, new grpc.Metadata()).catch((e: grpc.ServiceError) => e) as grpc.ServiceError;
    expect(noToken.code).toBe(grpc.status.UNAUTHENTICATED);
    // connect-node percent-encodes grpc-message fully; grpc-js decodes with decodeURI, which keeps %2C/%3A.
    expect(decodeURIComponent(noToken.details)).toMatch(/^UNAUTHENTICATED\(6,/);
    const missing: grpc.ServiceError = await unary(commands, "submitAndWait", { commands: { actAs: [] } }, adminMeta).catch((e: grpc.ServiceError) => e) as grpc.ServiceError;
    expect(missing.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(decodeURIComponent(missing.details)).toMatch(/^MISSING_FIELD\(8,/);
    expect(missing.metadata.get("grpc-status-details-bin")).toHaveLength(1);
  });
});

describe("gRPC via the generated Connect client", () => {
  const transport = () => createGrpcTransport({ baseUrl: s.grpc });

  it("submits, sees ledger effects and gets typed errors with details", async () => {
    const g = await s.partyUser("hal");
    const headers = { authorization: `Bearer ${g.token}` };
    const client = createClient(CommandService, transport());
    const res = await client.submitAndWaitForTransaction(
      {
        commands: {
          commandId: "h-1",
          actAs: [g.party],
          commands: [{ command: { case: "create", value: { templateId: IOU_ID, createArguments: iouInit(g.party, "1") } } }],
        },
        transactionFormat: { eventFormat: { filtersByParty: { [g.party]: {} } }, transactionShape: TransactionShape.LEDGER_EFFECTS },
      },
      { headers },
    );
    expect(res.transaction?.events[0].event.case).toBe("created");
    const err = await client
      .submitAndWait({ commands: { commandId: "h-1", actAs: [g.party], commands: [{ command: { case: "create", value: { templateId: IOU_ID, createArguments: iouInit(g.party, "1") } } }] } }, { headers })
      .catch((e: unknown) => e as ConnectError);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.AlreadyExists);
    const info = (err as ConnectError).findDetails(ErrorInfoSchema)[0];
    expect(info.reason).toBe("DUPLICATE_COMMAND");
    expect(info.metadata.category).toBe("10");
  });

  it("refuses Daml values nested past 100 levels with INVALID_ARGUMENT, however deep (gRPC and the Connect protocol)", async () => {
    const g = await s.partyUser("deep");
    const cases = [
      ...[150, 400].map((depth) => ({ depth, client: createClient(CommandService, transport()) })),
      { depth: 150, client: createClient(CommandService, createConnectTransport({ baseUrl: s.grpc, httpVersion: "2", useBinaryFormat: true })) },
    ];
    for (const { depth, client } of cases) {
      let deep: any = { sum: { case: "list", value: { elements: [] } } };
      for (let i = 0; i < depth; i++) deep = { sum: { case: "list", value: { elements: [deep] } } };
      const args = iouInit(g.party, "1");
      args.fields[4] = { label: "observers", value: deep };
      const err = await client
        .submitAndWait(
          { commands: { commandId: `deep-${depth}-${Math.random().toString(36).slice(2)}`, actAs: [g.party], commands: [{ command: { case: "create", value: { templateId: IOU_ID, createArguments: args } } }] } },
          { headers: { authorization: `Bearer ${g.token}` } },
        )
        .catch((e: unknown) => ConnectError.from(e));
      expect(err).toBeInstanceOf(ConnectError);
      expect((err as ConnectError).code).toBe(Code.InvalidArgument);
      expect((err as ConnectError).rawMessage).toMatch(/^INVALID_ARGUMENT\(8,.*Provided value exceeds maximum nesting level of 100/);
    }
  });

  it("refuses a Daml Text longer than 65,536 characters", async () => {
    const g = await s.partyUser("longtext");
    const client = createClient(CommandService, transport());
    const args = iouInit(g.party, "1");
    args.fields[2] = { label: "currency", value: { sum: { case: "text", value: "x".repeat(65_537) } } };
    const err = await client
      .submitAndWait({ commands: { commandId: "long-1", actAs: [g.party], commands: [{ command: { case: "create", value: { templateId: IOU_ID, createArguments: args } } }] } }, { headers: { authorization: `Bearer ${g.token}` } })
      .catch((e: unknown) => ConnectError.from(e));
    expect((err as ConnectError).code).toBe(Code.InvalidArgument);
    expect((err as ConnectError).rawMessage).toMatch(/currency: Text of 65537 characters exceeds the limit of 65536/);
  });

  it("aborts a completion stream once its user's rights change (STALE_STREAM_AUTHORIZATION, ABORTED)", async () => {
    const g = await s.partyUser("yara");
    const stream = createClient(CommandCompletionService, transport()).completionStream({ parties: [g.party] }, { headers: { authorization: `Bearer ${g.token}` } });
    const drained = (async () => {
      for await (const _ of stream) {
        // offset checkpoints until the stream is cut
      }
    })().then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    await new Promise((r) => setTimeout(r, 200));
    // PATCH revokes the rights it lists.
    const revoked = await s.json("PATCH", `/v2/users/${g.user}/rights`, { userId: g.user, rights: [{ kind: { CanActAs: { value: { party: g.party } } } }] }, await s.adminToken());
    expect(revoked.status, revoked.text).toBe(200);
    const err = await drained;
    expect(err?.code).toBe(Code.Aborted);
    expect(err?.rawMessage).toMatch(/^STALE_STREAM_AUTHORIZATION\(2,/);
  });

  it("streams rejections as completions too", async () => {
    const g = await s.partyUser("ivy");
    const headers = { authorization: `Bearer ${g.token}` };
    const stream = createClient(CommandCompletionService, transport()).completionStream({ parties: [g.party] }, { headers });
    const it = stream[Symbol.asyncIterator]();
    const wrongType = iouInit(g.party, "not-a-number");
    await createClient(CommandService, transport())
      .submitAndWait({ commands: { commandId: "bad", actAs: [g.party], commands: [{ command: { case: "create", value: { templateId: IOU_ID, createArguments: wrongType } } }] } }, { headers })
      .catch(() => undefined);
    // Preprocessing failures are refused before a completion exists; an interpretation failure is not.
    await createClient(CommandService, transport())
      .submitAndWait(
        { commands: { commandId: "neg", actAs: [g.party], commands: [{ command: { case: "create", value: { templateId: IOU_ID, createArguments: iouInit(g.party, "-1") } } }] } },
        { headers },
      )
      .catch(() => undefined);
    // The stream begins at 0: offset checkpoints for other users' offsets may come first.
    let first = await it.next();
    while (first.value?.completionResponse.case === "offsetCheckpoint") first = await it.next();
    const c = first.value?.completionResponse;
    expect(c?.case).toBe("completion");
    if (c?.case !== "completion") return;
    expect(c.value.commandId).toBe("neg");
    expect(c.value.status?.code).toBe(Code.FailedPrecondition);
    expect(c.value.status?.message).toMatch(/^DAML_INTERPRETATION_ERROR\(9,/);
    await it.return?.();
  });

  it("moves static time with TimeService and refuses to go backwards", async () => {
    const headers = { authorization: `Bearer ${await s.adminToken()}` };
    const time = createClient(TimeService, transport());
    const now = (await time.getTime({}, { headers })).currentTime!;
    const later = { seconds: now.seconds + 3600n, nanos: 0 };
    await time.setTime({ currentTime: now, newTime: later }, { headers });
    expect((await time.getTime({}, { headers })).currentTime?.seconds).toBe(later.seconds);
    const back = await time.setTime({ currentTime: later, newTime: now }, { headers }).catch((e: ConnectError) => e);
    expect((back as ConnectError).code).toBe(Code.InvalidArgument);
    const stale = await time.setTime({ currentTime: now, newTime: later }, { headers }).catch((e: ConnectError) => e);
    expect((stale as ConnectError).code).toBe(Code.InvalidArgument);
    // Ledger time follows: a new contract is created at the static time.
    const g = await s.partyUser("jon");
    const res = await createClient(CommandService, transport()).submitAndWaitForTransaction(
      { commands: { commandId: "t-1", actAs: [g.party], commands: [{ command: { case: "create", value: { templateId: IOU_ID, createArguments: iouInit(g.party, "1") } } }] } },
      { headers: { authorization: `Bearer ${g.token}` } },
    );
    expect(res.transaction?.effectiveAt?.seconds).toBe(later.seconds);
  });
});
