/**
 * The system under test (a real ccwallet on ephemeral loopback ports, fresh data dir) and the
 * bare baseline servers (Connect unary echo on HTTP/2, JSON echo on HTTP/1.1).
 */
import { connectNodeAdapter } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { VersionService } from "../../gen/com/daml/ledger/api/v2/version_service_pb.js";
import { grpcRoutes, serveGrpcNatively } from "../../src/api/grpc-native/index.js";
import { encodeCompletionResponse } from "../../src/api/convert/completion-wire.js";
import { WIRE_ENCODING } from "../../src/api/convert/wire-encoded.js";
import { CommandCompletionService } from "../../gen/com/daml/ledger/api/v2/command_completion_service_pb.js";
import { issueToken } from "../../src/auth/index.js";
import { loadConfig } from "../../src/config/index.js";
import { startServer, type RunningServer, type ServerOptions } from "../../src/server.js";

export interface BenchServer {
  readonly server: RunningServer;
  readonly grpcUrl: string;
  readonly httpUrl: string;
  readonly dataDir: string;
  partyUser(hint: string): Promise<{ party: string; user: string; token: string }>;
  stop(): Promise<void>;
}

/** `env`: extra CCWALLET_* settings (e.g. CCWALLET_CONFIG for automation switches). */
export async function startBenchServer(listMaxElements: number, options: ServerOptions = {}, env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(process.env.BENCH_DATA_PARENT ?? tmpdir(), "ccwallet-bench-"));
  const config = loadConfig({
    CCWALLET_DATA_DIR: dataDir,
    CCWALLET_HTTP_PORT: "0",
    CCWALLET_GRPC_PORT: "0",
    CCWALLET_HOST: "127.0.0.1",
    // BENCH_LOG=error shows what a run's failed requests hit.
    CCWALLET_LOG_LEVEL: process.env.BENCH_LOG ?? "silent",
    CCWALLET_HTTP_LIST_MAX_ELEMENTS: String(listMaxElements),
    CCWALLET_HTTP_MAX_BODY_BYTES: String(64 * 1024 * 1024),
    // The catch-up scenario reads 100,000 completions as one JSON array (~45 MB).
    CCWALLET_HTTP_LIST_MAX_BYTES: String(512 * 1024 * 1024),
    CCWALLET_HTTP_LISTS_MAX_BYTES: String(1024 * 1024 * 1024),
    ...env,
  });
  const server = await startServer(config, {}, options);
  const httpUrl = `http://127.0.0.1:${server.httpPort}`;
  const admin = await issueToken({ secret: server.secret, userId: config.adminUser });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(httpUrl + path, {
      method: "POST",
      headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`POST ${path}: HTTP ${res.status} ${text}`);
    return JSON.parse(text) as { partyDetails: { party: string } };
  };
  return {
    server,
    grpcUrl: `http://127.0.0.1:${server.grpcPort}`,
    httpUrl,
    dataDir,
    async partyUser(hint) {
      const user = `${hint}-${process.pid}`;
      const party = (await post("/v2/parties", { partyIdHint: user })).partyDetails.party;
      await post("/v2/users", { user: { id: user, primaryParty: party }, rights: [{ kind: { CanActAs: { value: { party } } } }] });
      return { party, user, token: await issueToken({ secret: server.secret, userId: user }) };
    },
    async stop() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface EchoServers {
  readonly grpcUrl: string;
  /** The same VersionService answer from @grpc/grpc-js (protos loaded from proto/): another server stack. */
  readonly grpcJsUrl: string;
  /**
   * The same answer from ccwallet's native gRPC handler (src/api/grpc-native/native-grpc.ts), Connect
   * behind it. It also serves CompletionStream as a flood: `beginExclusive` pre-encoded
   * completions, nothing read or encoded per item (the client's floor for the catch-up read).
   */
  readonly nativeUrl: string;
  readonly httpUrl: string;
  stop(): Promise<void>;
}

/** A rejection completion like the catch-up bench's, encoded once. */
function completionFloodImpl() {
  const sample = encodeCompletionResponse(
    {
      offset: 123_456n,
      commandId: "flood-command-000123456",
      userId: "flood-user",
      actAs: ["flood-party::1220" + "c".repeat(64)],
      submissionId: "sub-" + "0".repeat(28),
      deduplication: { kind: "none" },
      recordTime: 1_763_000_000_000_000n,
      status: {
        code: 6,
        message: "DUPLICATE_COMMAND(10,sub-123456): A command with the given command id has already been successfully processed",
        errorCode: "DUPLICATE_COMMAND",
        category: 10,
        context: { changeId: '["flood-user",["flood-party::1220cc"],"flood-command-000123456"]', existing_submission_id: "" },
        resources: [],
        correlationId: "sub-123456",
        definiteAnswer: false,
      },
    },
    { participantId: "participant::1220", synchronizerId: "global-synchronizer::1220" + "d".repeat(64) },
  );
  const item = { [WIRE_ENCODING]: () => sample, completionResponse: { case: undefined } };
  // (An object literal is fine here: one item, yielded n times.)
  return {
    async *completionStream(req: { beginExclusive: bigint }) {
      for (let i = 0n; i < req.beginExclusive; i++) yield item;
    },
  };
}

/** Baselines: a constant VersionService answer from three gRPC server stacks, and bare JSON echo. */
export async function startEchoServers(): Promise<EchoServers> {
  const answer = {
    version: "3.4.12",
    features: {
      experimental: { staticTime: { supported: false } },
      userManagement: { supported: true, maxRightsPerUser: 1000, maxUsersPageSize: 1000 },
      partyManagement: { maxPartiesPageSize: 1000 },
      offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 60n } },
    },
  };
  const echoImpl = { getLedgerApiVersion: async () => answer };
  const g = http2.createServer(connectNodeAdapter({ routes: (r) => r.service(VersionService, echoImpl) }));
  const n = http2.createServer(connectNodeAdapter({ routes: (r) => r.service(VersionService, echoImpl) }));
  serveGrpcNatively(
    n,
    grpcRoutes([
      { service: VersionService, impl: echoImpl },
      { service: CommandCompletionService, impl: completionFloodImpl() },
    ]),
  );
  const sessions = new Set<http2.ServerHttp2Session>();
  for (const server of [g, n]) {
    server.on("session", (s) => {
      sessions.add(s);
      s.on("close", () => sessions.delete(s));
    });
  }
  const h = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    });
  });
  const protoDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "proto");
  const def = protoLoader.loadSync("com/daml/ledger/api/v2/version_service.proto", { includeDirs: [protoDir], longs: String, enums: String, defaults: true, oneofs: true });
  const pkg = grpc.loadPackageDefinition(def) as unknown as { com: { daml: { ledger: { api: { v2: { VersionService: grpc.ServiceClientConstructor } } } } } };
  const gjs = new grpc.Server();
  const gjsAnswer = { ...answer, features: { ...answer.features, offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: "60" } } } };
  gjs.addService(pkg.com.daml.ledger.api.v2.VersionService.service, {
    getLedgerApiVersion: (_call: unknown, cb: grpc.sendUnaryData<unknown>) => cb(null, gjsAnswer),
  });
  const gjsPort = await new Promise<number>((resolve, reject) =>
    gjs.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, port) => (e ? reject(e) : resolve(port))),
  );
  await new Promise<void>((r) => g.listen(0, "127.0.0.1", r));
  await new Promise<void>((r) => n.listen(0, "127.0.0.1", r));
  await new Promise<void>((r) => h.listen(0, "127.0.0.1", r));
  return {
    grpcUrl: `http://127.0.0.1:${(g.address() as AddressInfo).port}`,
    grpcJsUrl: `http://127.0.0.1:${gjsPort}`,
    nativeUrl: `http://127.0.0.1:${(n.address() as AddressInfo).port}`,
    httpUrl: `http://127.0.0.1:${(h.address() as AddressInfo).port}`,
    async stop() {
      for (const s of sessions) s.destroy();
      h.closeAllConnections();
      gjs.forceShutdown();
      await Promise.all([new Promise((r) => g.close(r)), new Promise((r) => n.close(r)), new Promise((r) => h.close(r))]);
    },
  };
}
