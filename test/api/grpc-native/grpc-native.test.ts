/**
 * The native gRPC path (src/api/grpc-native/native-grpc.ts) next to the Connect adapter on the same port:
 * which protocol goes where, status details, grpc-message encoding, deadlines, cancellation,
 * compression, protocol errors and a large catch-up stream, through grpc-js, the Connect gRPC
 * client and a raw HTTP/2 client.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { compressionGzip, createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import http2 from "node:http2";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CommandCompletionService, CompletionStreamRequestSchema } from "../../../gen/com/daml/ledger/api/v2/command_completion_service_pb.js";
import { CommandService, SubmitAndWaitRequestSchema } from "../../../gen/com/daml/ledger/api/v2/command_service_pb.js";
import { VersionService } from "../../../gen/com/daml/ledger/api/v2/version_service_pb.js";
import { ErrorInfoSchema } from "../../../gen/google/rpc/error_details_pb.js";
import { StatusSchema } from "../../../gen/google/rpc/status_pb.js";
import { startTestServer, type TestServer } from "../../support/test-server.js";

const def = protoLoader.loadSync(
  [
    "com/daml/ledger/api/v2/command_service.proto",
    "com/daml/ledger/api/v2/command_completion_service.proto",
    "com/daml/ledger/api/v2/version_service.proto",
    "com/daml/ledger/api/v2/update_service.proto",
    "com/daml/ledger/api/v2/state_service.proto",
  ],
  { includeDirs: ["proto"], longs: String, enums: String, defaults: true, oneofs: true },
);
const v2 = (grpc.loadPackageDefinition(def) as any).com.daml.ledger.api.v2;

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.stop());

const address = () => `127.0.0.1:${s.server.grpcPort}`;
const meta = (token?: string) => {
  const m = new grpc.Metadata();
  if (token) m.set("authorization", `Bearer ${token}`);
  return m;
};
const IOU_ID = { packageId: "#ccwallet-demo", moduleName: "Ccwallet.Demo.Iou", entityName: "Iou" };
const iouCommands = (party: string, commandId: string, amount = "1") => ({
  commandId,
  actAs: [party],
  commands: [
    {
      create: {
        templateId: IOU_ID,
        createArguments: {
          fields: [
            { label: "issuer", value: { party } },
            { label: "owner", value: { party } },
            { label: "currency", value: { text: "CC" } },
            { label: "amount", value: { numeric: amount } },
            { label: "observers", value: { list: { elements: [] } } },
          ],
        },
      },
    },
  ],
});
function unary<T>(client: any, method: string, req: unknown, md: grpc.Metadata, options: grpc.CallOptions = {}): Promise<T> {
  return new Promise((resolve, reject) => client[method](req, md, options, (err: grpc.ServiceError | null, res: T) => (err ? reject(err) : resolve(res))));
}
const err = (e: grpc.ServiceError) => e;
const iouFields = (party: string) => [
  { label: "issuer", value: { sum: { case: "party" as const, value: party } } },
  { label: "owner", value: { sum: { case: "party" as const, value: party } } },
  { label: "currency", value: { sum: { case: "text" as const, value: "CC" } } },
  { label: "amount", value: { sum: { case: "numeric" as const, value: "1" } } },
  { label: "observers", value: { sum: { case: "list" as const, value: { elements: [] } } } },
];
const failure = (p: Promise<unknown>) => p.then(() => expect.unreachable("call succeeded"), (e: grpc.ServiceError) => e);

/** A raw HTTP/2 gRPC call: what exactly goes over the wire. */
async function raw(path: string, body: Buffer, headers: Record<string, string> = {}) {
  const session = http2.connect(s.grpc);
  try {
    return await new Promise<{ headers: http2.IncomingHttpHeaders; trailers: http2.IncomingHttpHeaders; data: Buffer }>((resolve, reject) => {
      const req = session.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers", ...headers });
      let responseHeaders: http2.IncomingHttpHeaders = {};
      let trailers: http2.IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      req.on("response", (h) => (responseHeaders = h));
      req.on("trailers", (t) => (trailers = t));
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => resolve({ headers: responseHeaders, trailers, data: Buffer.concat(chunks) }));
      req.on("error", reject);
      req.end(body);
    });
  } finally {
    session.close();
  }
}
const frame = (bytes: Uint8Array) => {
  const b = Buffer.alloc(5 + bytes.length);
  b.writeUInt32BE(bytes.length, 1);
  b.set(bytes, 5);
  return b;
};

describe("native gRPC and Connect on one port", () => {
  it("serves plain gRPC natively: grpc-message is not over-encoded, details decode as google.rpc.Status", async () => {
    const commands = new v2.CommandService(address(), grpc.credentials.createInsecure());
    const err = await failure(unary(commands, "submitAndWait", { commands: { actAs: [] } }, meta(await s.adminToken())));
    expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
    // The spec's encoding escapes only non-printable bytes and '%': Canton's message arrives verbatim.
    expect(err.details).toMatch(/^MISSING_FIELD\(8,[0-9a-f]+\): The submitted command is missing a mandatory field: /);
    const status = fromBinary(StatusSchema, err.metadata.get("grpc-status-details-bin")[0] as Buffer);
    expect(status.code).toBe(Code.InvalidArgument);
    expect(status.message).toBe(err.details);
    const info = status.details.find((d) => d.typeUrl.endsWith("google.rpc.ErrorInfo"))!;
    expect(fromBinary(ErrorInfoSchema, info.value).reason).toBe("MISSING_FIELD");
  });

  it("keeps non-ASCII and '%' intact through grpc-message percent-encoding", async () => {
    const commands = new v2.CommandService(address(), grpc.credentials.createInsecure());
    const g = await s.partyUser("pct");
    const err = await failure(unary(commands, "submitAndWait", { commands: { ...iouCommands(g.party, "pct-1"), userId: "ünï%cøde" } }, meta(g.token)));
    expect(err.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(err.details).toContain("ünï%cøde");
  });

  it("answers the Connect client over gRPC, gRPC-Web and the Connect protocol alike", async () => {
    const headers = { authorization: `Bearer ${await s.adminToken()}` };
    for (const transport of [
      createGrpcTransport({ baseUrl: s.grpc }),
      createGrpcWebTransport({ baseUrl: s.grpc, httpVersion: "2" }),
      createConnectTransport({ baseUrl: s.grpc, httpVersion: "2" }),
    ]) {
      expect((await createClient(VersionService, transport).getLedgerApiVersion({}, { headers })).version).toBe("3.4.12");
      const err = await createClient(CommandService, transport)
        .submitAndWait({ commands: { actAs: [] } }, { headers })
        .catch((e: unknown) => ConnectError.from(e));
      expect((err as ConnectError).code).toBe(Code.InvalidArgument);
      expect((err as ConnectError).rawMessage).toMatch(/^MISSING_FIELD\(8,/);
      expect((err as ConnectError).findDetails(ErrorInfoSchema)[0].reason).toBe("MISSING_FIELD");
    }
  });

  it("accepts gzip-compressed requests from both clients", async () => {
    const g = await s.partyUser("gz");
    const connect = createClient(CommandService, createGrpcTransport({ baseUrl: s.grpc, sendCompression: compressionGzip, compressMinBytes: 1 }));
    const res = await connect.submitAndWait(
      { commands: { commandId: "gz-1", actAs: [g.party], commands: [{ command: { case: "create", value: { templateId: IOU_ID, createArguments: { fields: [] } } } }] } },
      { headers: { authorization: `Bearer ${g.token}` } },
    ).catch((e: unknown) => ConnectError.from(e));
    // An empty record is refused by the ledger, which proves the compressed request was read.
    expect((res as ConnectError).code).toBe(Code.InvalidArgument);
    const commands = new v2.CommandService(address(), grpc.credentials.createInsecure(), { "grpc.default_compression_algorithm": 2 });
    const ok = await unary<any>(commands, "submitAndWait", { commands: iouCommands(g.party, "gz-2") }, meta(g.token));
    expect(ok.updateId).toMatch(/^1220/);
  });

  it("answers an unknown method UNIMPLEMENTED and malformed frames with a gRPC status", async () => {
    const unknown = await raw("/com.daml.ledger.api.v2.CommandService/NoSuchMethod", frame(new Uint8Array()));
    expect(unknown.headers["grpc-status"] ?? unknown.trailers["grpc-status"]).toBe(String(Code.Unimplemented));
    const truncated = await raw("/com.daml.ledger.api.v2.VersionService/GetLedgerApiVersion", Buffer.from([0, 0, 0, 0, 9, 1]));
    expect(truncated.headers["grpc-status"]).toBe(String(Code.Internal));
    const none = await raw("/com.daml.ledger.api.v2.VersionService/GetLedgerApiVersion", Buffer.alloc(0));
    expect(none.headers["grpc-status"]).toBe(String(Code.Unimplemented));
    const tooLarge = await raw("/com.daml.ledger.api.v2.VersionService/GetLedgerApiVersion", Buffer.from([0, 0x7f, 0, 0, 0]));
    expect(tooLarge.headers["grpc-status"]).toBe(String(Code.ResourceExhausted));
    const badEncoding = await raw("/com.daml.ledger.api.v2.VersionService/GetLedgerApiVersion", Buffer.from([1, 0, 0, 0, 0]), { "grpc-encoding": "snappy" });
    expect(badEncoding.headers["grpc-status"]).toBe(String(Code.Unimplemented));
    expect(badEncoding.headers["grpc-accept-encoding"]).toBe("gzip,br");
    const corrupt = await raw("/com.daml.ledger.api.v2.VersionService/GetLedgerApiVersion", Buffer.from([1, 0, 0, 0, 3, 1, 2, 3]), { "grpc-encoding": "gzip" });
    expect(corrupt.headers["grpc-status"]).toBe(String(Code.Internal));
    expect(decodeURIComponent(String(corrupt.headers["grpc-message"]))).toMatch(/cannot decompress the gzip request/);
    const bomb = gzipSync(Buffer.alloc(17 * 1024 * 1024));
    const header = Buffer.alloc(5);
    header[0] = 1;
    header.writeUInt32BE(bomb.length, 1);
    const inflated = await raw("/com.daml.ledger.api.v2.VersionService/GetLedgerApiVersion", Buffer.concat([header, bomb]), { "grpc-encoding": "gzip" });
    expect(inflated.headers["grpc-status"]).toBe(String(Code.ResourceExhausted));
  });

  it("refuses a compressed flag without an encoding, and reserved flag bits, with INTERNAL as gRPC does", async () => {
    // PROTOCOL-HTTP2: without Message-Encoding the Compressed-Flag must be 0; grpc-go and grpc-java answer INTERNAL.
    for (const headers of [{}, { "grpc-encoding": "identity" }] as Record<string, string>[]) {
      const flagged = await raw("/com.daml.ledger.api.v2.VersionService/GetLedgerApiVersion", Buffer.from([1, 0, 0, 0, 0]), headers);
      expect(flagged.headers["grpc-status"]).toBe(String(Code.Internal));
      expect(decodeURIComponent(String(flagged.headers["grpc-message"]))).toMatch(/compressed flag set without a grpc-encoding/);
    }
    for (const flags of [2, 0x80, 0xff]) {
      const reserved = await raw("/com.daml.ledger.api.v2.VersionService/GetLedgerApiVersion", Buffer.from([flags, 0, 0, 0, 0]));
      expect(reserved.headers["grpc-status"]).toBe(String(Code.Internal));
      expect(decodeURIComponent(String(reserved.headers["grpc-message"]))).toMatch(new RegExp(`unexpected message flags ${flags}`));
    }
  });

  it("answers a unary call with headers, one message and OK trailers", async () => {
    const res = await raw("/com.daml.ledger.api.v2.VersionService/GetLedgerApiVersion", frame(new Uint8Array()), {
      authorization: `Bearer ${await s.adminToken()}`,
    });
    expect(res.headers[":status"]).toBe(200);
    expect(res.headers["content-type"]).toBe("application/grpc");
    expect(res.trailers["grpc-status"]).toBe("0");
    expect(res.data.readUInt32BE(1)).toBe(res.data.length - 5);
  });
});

describe("native gRPC deadlines and cancellation", () => {
  it("ends a call past its grpc-timeout with DEADLINE_EXCEEDED", async () => {
    const g = await s.partyUser("dl");
    const start = Date.now();
    const req = { userId: g.user, parties: [g.party], beginExclusive: "0" };
    const stream = new v2.CommandCompletionService(address(), grpc.credentials.createInsecure()).completionStream(req, meta(g.token), {
      deadline: Date.now() + 300,
    });
    const err = await new Promise<grpc.ServiceError>((resolve) => {
      stream.on("error", resolve);
      stream.on("data", () => undefined);
    });
    expect(err.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    expect(Date.now() - start).toBeGreaterThanOrEqual(280);
    const immediate = await raw("/com.daml.ledger.api.v2.VersionService/GetLedgerApiVersion", frame(new Uint8Array()), { "grpc-timeout": "0m" });
    expect(immediate.headers["grpc-status"]).toBe(String(Code.DeadlineExceeded));
    const invalid = await raw("/com.daml.ledger.api.v2.VersionService/GetLedgerApiVersion", frame(new Uint8Array()), { "grpc-timeout": "soon" });
    expect(invalid.headers["grpc-status"]).toBe(String(Code.InvalidArgument));
  });

  it("stops a streaming implementation when the deadline passes or the client cancels", async () => {
    // A completion stream follows the ledger through the completion hub while it runs.
    const hub = s.server.api.completions;
    const following = () => hub.watching;
    const g = await s.partyUser("cancel");
    const client = new v2.CommandCompletionService(address(), grpc.credentials.createInsecure());
    const req = { userId: g.user, parties: [g.party], beginExclusive: "0" };
    const stream = client.completionStream(req, meta(g.token));
    stream.on("error", () => undefined);
    await until(() => following() === 1);
    stream.cancel();
    await until(() => following() === 0);

    // The deadline, enforced by the server: a raw client has no timer of its own.
    const session = http2.connect(s.grpc);
    const body = frame(toBinary(CompletionStreamRequestSchema, create(CompletionStreamRequestSchema, { userId: g.user, parties: [g.party] })));
    const r = session.request({ ":method": "POST", ":path": "/com.daml.ledger.api.v2.CommandCompletionService/CompletionStream", "content-type": "application/grpc", te: "trailers", authorization: `Bearer ${g.token}`, "grpc-timeout": "200m" });
    const trailers = new Promise<http2.IncomingHttpHeaders>((resolve) => {
      r.on("response", (h) => h["grpc-status"] && resolve(h));
      r.on("trailers", resolve);
    });
    r.on("data", () => undefined);
    r.end(body);
    await until(() => following() === 1);
    expect((await trailers)["grpc-status"]).toBe(String(Code.DeadlineExceeded));
    await until(() => following() === 0);
    session.close();
  });
});

describe("native gRPC and lost clients", () => {
  it("survives clients that vanish mid-call, and the command they sent still commits once", async () => {
    const g = await s.partyUser("vanish");
    const request = frame(
      toBinary(
        SubmitAndWaitRequestSchema,
        create(SubmitAndWaitRequestSchema, {
          commands: {
            commandId: "vanish-1",
            actAs: [g.party],
            commands: [{ command: { case: "create", value: { templateId: IOU_ID, createArguments: { fields: iouFields(g.party) } } } }],
          },
        }),
      ),
    );
    for (let i = 0; i < 5; i++) {
      const session = http2.connect(s.grpc);
      const req = session.request({ ":method": "POST", ":path": "/com.daml.ledger.api.v2.CommandService/SubmitAndWait", "content-type": "application/grpc", te: "trailers", authorization: `Bearer ${g.token}` });
      req.on("error", () => undefined);
      req.end(request);
      // Gone before (or while) the ledger answers: RST_STREAM, then the connection.
      await new Promise((r) => setTimeout(r, i === 4 ? 100 : i));
      req.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
      session.destroy();
    }
    const commands = new v2.CommandService(address(), grpc.credentials.createInsecure());
    const again = await failure(unary(commands, "submitAndWait", { commands: iouCommands(g.party, "vanish-1") }, meta(g.token)));
    // The first attempt that reached the ledger (the last one surely did) committed; the rest were deduplicated.
    expect(err(again).code).toBe(grpc.status.ALREADY_EXISTS);
  });
});

describe("native gRPC streaming", () => {
  it("catches up thousands of completions in order through grpc-js and Connect, then follows new ones", async () => {
    const g = await s.partyUser("bulk");
    const n = 3500;
    const status = { code: 6, message: "DUPLICATE_COMMAND(10,x): dup", errorCode: "DUPLICATE_COMMAND", category: 10, context: { a: "b" }, resources: [], correlationId: "x", definiteAnswer: false };
    const begin = await s.server.store.ledgerEnd();
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        s.server.store.commit({
          kind: "rejection",
          completion: { commandId: `bulk-${i}`, userId: g.user, actAs: [g.party], submissionId: `s-${i}`, deduplication: { kind: "none" }, recordTime: 1n, status },
        }),
      ),
    );
    // grpc-js
    const js = new v2.CommandCompletionService(address(), grpc.credentials.createInsecure()).completionStream(
      { userId: g.user, parties: [g.party], beginExclusive: String(begin) },
      meta(g.token),
    );
    js.on("error", () => undefined);
    const seen: string[] = [];
    await new Promise<void>((resolve) =>
      js.on("data", (r: any) => {
        seen.push(r.completion.commandId);
        if (seen.length === n) resolve();
      }),
    );
    js.cancel();
    expect(seen).toEqual(Array.from({ length: n }, (_, i) => `bulk-${i}`));
    // Connect: the same, then a new command arrives on the open stream.
    const headers = { authorization: `Bearer ${g.token}` };
    const it = createClient(CommandCompletionService, createGrpcTransport({ baseUrl: s.grpc }))
      .completionStream({ userId: g.user, parties: [g.party], beginExclusive: begin }, { headers })
      [Symbol.asyncIterator]();
    for (let i = 0; i < n; i++) {
      const next = await it.next();
      expect(next.value.completionResponse.value.commandId).toBe(`bulk-${i}`);
    }
    const commands = new v2.CommandService(address(), grpc.credentials.createInsecure());
    await unary(commands, "submitAndWait", { commands: iouCommands(g.party, "after-catch-up") }, meta(g.token));
    const live = await it.next();
    expect(live.value.completionResponse.value.commandId).toBe("after-catch-up");
    expect(live.value.completionResponse.value.status?.code ?? 0).toBe(0);
    await it.return?.();
  });
});

describe("native gRPC: the other streams", () => {
  it("streams updates up to an end offset and the active contracts, through grpc-js", async () => {
    const g = await s.partyUser("streams");
    const commands = new v2.CommandService(address(), grpc.credentials.createInsecure());
    const begin = await s.server.store.ledgerEnd();
    const done: any[] = [];
    for (let i = 0; i < 3; i++) done.push(await unary<any>(commands, "submitAndWait", { commands: iouCommands(g.party, `st-${i}`, String(i + 1)) }, meta(g.token)));
    const end = done[2].completionOffset as string;
    const updates = new v2.UpdateService(address(), grpc.credentials.createInsecure());
    const stream = updates.getUpdates(
      {
        beginExclusive: String(begin),
        endInclusive: end,
        updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [g.party]: {} } }, transactionShape: "TRANSACTION_SHAPE_ACS_DELTA" } },
      },
      meta(g.token),
    );
    const ids: string[] = [];
    await new Promise<void>((resolve, reject) => {
      stream.on("data", (r: any) => r.transaction && ids.push(r.transaction.updateId));
      stream.on("end", resolve);
      stream.on("error", reject);
    });
    expect(ids).toEqual(done.map((d) => d.updateId));
    const state = new v2.StateService(address(), grpc.credentials.createInsecure());
    const acs = state.getActiveContracts({ activeAtOffset: end, eventFormat: { filtersByParty: { [g.party]: {} } } }, meta(g.token));
    const amounts: string[] = [];
    await new Promise<void>((resolve, reject) => {
      acs.on("data", (r: any) => r.activeContract && amounts.push(r.activeContract.createdEvent.createArguments.fields.find((f: any) => f.label === "amount").value.numeric));
      acs.on("end", resolve);
      acs.on("error", reject);
    });
    expect(amounts.sort()).toEqual(["1.0000000000", "2.0000000000", "3.0000000000"]);
  });
});

async function until(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 10));
  }
}
