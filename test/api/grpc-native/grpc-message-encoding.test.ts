/**
 * `grpc-message` encoding between connect-node (server) and @grpc/grpc-js / Connect (clients),
 * over a real HTTP/2 socket: connect-node alone garbles `,` and `:` for grpc-js clients; wrapped by
 * `specGrpcMessageHandler` every client reads the message exactly.
 */
import { Code, ConnectError, createClient, type ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter, createGrpcTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VersionService } from "../../../gen/com/daml/ledger/api/v2/version_service_pb.js";
import { reencodeGrpcMessage, specEncodeGrpcMessage, specGrpcMessageHandler } from "../../../src/api/grpc-native/grpc-message-encoding.js";

const MESSAGE = "OFFSET_AFTER_LEDGER_END(12,0a1b): Begin offset (5) is after ledger end (3); 100% sûr, a=b&c #x";

const routes = (router: ConnectRouter) =>
  router.service(VersionService, {
    getLedgerApiVersion: () => {
      throw new ConnectError(MESSAGE, Code.OutOfRange);
    },
  });

const servers: http2.Http2Server[] = [];
const sessions: http2.Http2Session[] = [];
async function serve(wrapped: boolean): Promise<string> {
  const adapter = connectNodeAdapter({ routes });
  const server = http2.createServer(wrapped ? specGrpcMessageHandler(adapter) : adapter);
  server.on("session", (session) => sessions.push(session));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterAll(async () => {
  // Clients keep their HTTP/2 sessions open; close() waits for them.
  for (const session of sessions) session.destroy();
  for (const s of servers) await new Promise((resolve) => s.close(resolve));
});

let VersionClient: any;
beforeAll(() => {
  const pkg = grpc.loadPackageDefinition(protoLoader.loadSync("com/daml/ledger/api/v2/version_service.proto", { includeDirs: ["proto"] })) as any;
  VersionClient = pkg.com.daml.ledger.api.v2.VersionService;
});

async function grpcJsDetails(address: string): Promise<{ code: number; details: string }> {
  const client = new VersionClient(address, grpc.credentials.createInsecure());
  try {
    return await new Promise((resolve) => client.getLedgerApiVersion({}, (err: grpc.ServiceError) => resolve({ code: err.code, details: err.details })));
  } finally {
    client.close();
  }
}

describe("grpc-message encoding", () => {
  it("encodes only what the spec says: bytes outside space..~, and %", () => {
    expect(specEncodeGrpcMessage("a,b: c%d é\n")).toBe("a,b: c%25d %C3%A9%0A");
    expect(reencodeGrpcMessage(encodeURIComponent(MESSAGE))).toBe(specEncodeGrpcMessage(MESSAGE));
    expect(decodeURI(specEncodeGrpcMessage(MESSAGE))).toBe(MESSAGE);
    expect(decodeURIComponent(specEncodeGrpcMessage(MESSAGE))).toBe(MESSAGE);
    expect(reencodeGrpcMessage("%E0%A4%A")).toBe("%E0%A4%A"); // not connect's encoding: untouched
  });

  it("connect-node alone: grpc-js sees %2C and %3A", async () => {
    const r = await grpcJsDetails(await serve(false));
    expect(r.code).toBe(grpc.status.OUT_OF_RANGE);
    expect(r.details).toContain("(12%2C0a1b)%3A");
  });

  it("wrapped: grpc-js and the Connect client both read the message exactly", async () => {
    const address = await serve(true);
    expect(await grpcJsDetails(address)).toEqual({ code: grpc.status.OUT_OF_RANGE, details: MESSAGE });
    const err = await createClient(VersionService, createGrpcTransport({ baseUrl: `http://${address}` }))
      .getLedgerApiVersion({})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).rawMessage).toBe(MESSAGE);
    expect((err as ConnectError).code).toBe(Code.OutOfRange);
  });
});
