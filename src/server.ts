/**
 * The ccwallet process: store, ledger, Ledger API on the gRPC port (Connect: gRPC, gRPC-Web,
 * Connect over h2c) and the JSON API on the HTTP port. `startServer` returns once both listen;
 * `close` drains in-flight submissions and streams, then closes the store.
 */
import { connectNodeAdapter } from "@connectrpc/connect-node";
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import pino, { type Logger } from "pino";
import type { Registry } from "prom-client";
import { authenticateFirst, createRoutes, ledgerServices, STATIC_TIME_SETTING } from "./api/services/ledger/index.js";
import type { LedgerApi } from "./api/services/ledger/index.js";
import { StreamAuthorizations } from "./api/services/ledger/stream-authorizations.js";
import { StreamLimits } from "./api/services/ledger/stream-limits.js";
import { STREAM_PAGE_LIMITS, StreamPageBudget } from "./ledger/stream-page-budget.js";
import { instrumentServices } from "./api/services/instrument.js";
import { createNodeMetrics, opsEndpoints, OPS_PATHS, routeLabeler, type NodeMetrics, type OpsEndpoints } from "./ops/index.js";
import { LedgerProtoEncoder } from "./api/convert/ledger-proto.js";
import {
  admitBeforeBody,
  GRPC_UNARY_STREAMS_PER_CONNECTION,
  grpcRoutes,
  MAX_MESSAGE_NESTING,
  methodsByPath,
  MAX_PUBLIC_REQUEST_BYTES,
  MAX_REQUEST_MESSAGE_BYTES,
  serveGrpcNatively,
  specGrpcMessageHandler,
  trackSessions,
} from "./api/grpc-native/index.js";
import { answerClientError, refuseWithoutHost } from "./api/http/client-error.js";
import { isLoopbackHost } from "./api/http/loopback.js";
import { parseRequestUrl, refuseUnparsableTarget } from "./api/http/request-url.js";
import { createGateway } from "./api/http/gateway.js";
import { createWebUi, isWebUiRequest } from "./api/http/web-ui.js";
import type { Route } from "./api/http/route-table.js";
import { createTokenVerifier, describeSecret, isPrivileged, issueToken, loadOrCreateSecret } from "./auth/index.js";
import { walletServices } from "./api/services/wallet/index.js";
import { admitAuthenticated, isPublicMethod } from "./api/services/call-admission.js";
import { bootstrap, bootstrapValidatorOperator } from "./bootstrap.js";
import type { Config } from "./config/index.js";
import { PreparedInterpretations } from "./ledger/prepared-interpretations.js";
import { partyIdFor } from "./ledger/ids.js";
import { SigningKeyCache } from "./external/signing-key-cache.js";
import { NetworkCache } from "./network/network-cache.js";
import { StaticClock, WallClock } from "./ledger/clock.js";
import { Ledger } from "./ledger/engine.js";
import { CompletionHub } from "./ledger/completion-hub.js";
import { UpdateHub } from "./ledger/update-hub.js";
import { openStore } from "./store/index.js";
import type { Store } from "./ledger/store-port.js";
import { createRegistry } from "./templates/index.js";
import { DSO_PARTY_HINT, startNetwork, type RunningNetwork } from "./dso/index.js";
import { tokenStandardGenesis, tokenStandardSteps } from "./dso/token-standard.js";
import { TrafficMeter } from "./network/traffic/traffic-meter.js";
import { walletAutomationSteps } from "./wallet/automation/index.js";
import { LedgerClient } from "./ledger/ledger-client.js";
import { ccFeaturedAppRights } from "./wallet/support/cc-featured-app-rights.js";
import {
  HistoryIndex,
  HoldingsIndex,
  OfferIndex,
  TransferCommandIndex,
  ccWalletInstaller,
  newWalletLocal,
  type FeaturedAppRights,
  type OnboardingDeps,
  type WalletDeps,
  type WalletInstaller,
} from "./wallet/index.js";
import { WalletUsers } from "./wallet/support/wallet-users.js";
import { extend } from "./util/extend.js";

export const LEDGER_API_VERSION = "3.4.12";

/** Connections the JSON port holds at once (its WebSocket streams included); the gRPC port has its own. */
export const HTTP_MAX_CONNECTIONS = 8192;

export interface RunningServer {
  readonly grpcPort: number;
  readonly httpPort: number;
  readonly store: Store;
  readonly api: LedgerApi;
  readonly secret: Uint8Array;
  /** The simulated network: DSO and validator parties, and the DSO automation. */
  readonly network: RunningNetwork;
  /** What the wallet use cases, the `/v0` services and the wallet automation run with. */
  readonly wallet: WalletDeps;
  /** The JSON gateway's routes (`/v2`, `/v0` and aliases, registry). */
  readonly httpRoutes: readonly Route[];
  /** The node's Prometheus registry (also served at `GET /metrics`). */
  readonly metrics: Registry;
  close(): Promise<void>;
}

/** Collaborators of the wallet apps that the Canton Coin model (or a test) provides. */
export interface ServerParts {
  readonly walletInstaller?: (api: LedgerApi) => WalletInstaller;
  readonly featuredAppRights?: (api: LedgerApi) => FeaturedAppRights;
}

export interface ServerOptions {
  /**
   * Who answers plain gRPC on the gRPC port: "native" (default; native-grpc.ts) or "connect"
   * (the Connect adapter for every protocol; the bench measures both).
   */
  readonly grpcTransport?: "native" | "connect";
}

export async function startServer(config: Config, parts: ServerParts = {}, options: ServerOptions = {}): Promise<RunningServer> {
  const log = pino({ level: config.logLevel, base: undefined });
  // Read at scrape time only; the node's parts exist by then.
  let running: { api: LedgerApi; wallet: WalletDeps } | undefined;
  const metrics = createNodeMetrics({
    ledgerEnd: () => running?.api.store.ledgerEnd() ?? Promise.resolve(0n),
    openStreams: () => running?.api.streams.open ?? 0,
    holdingsPerParty: async () => (running ? holdingsPerParty(running.wallet) : []),
    traffic: async () => running?.api.traffic?.status(running.api.clock.now()),
  });
  const { api, secret } = await openLedgerApi(config, log, metrics);
  const apps = await startApps(api, config, parts, log, metrics);
  running = { api, wallet: apps.wallet };
  let shuttingDown = false;
  const ops = opsEndpoints({
    metrics,
    readiness: {
      storeReachable: () => api.store.probe(),
      automationRunning: () => apps.network.automation.started,
      shuttingDown: () => shuttingDown,
    },
  });
  const { grpcServer, grpcSessions, httpServer, gateway } = createListeners(api, apps.v0, config, options, log, { metrics, ops, secret });

  await listen(grpcServer, config.grpcPort, config.host);
  await listen(httpServer, config.httpPort, config.host);
  const grpcPort = (grpcServer.address() as AddressInfo).port;
  const httpPort = (httpServer.address() as AddressInfo).port;
  const { store, ledger, clock, identity } = api;
  log.info({ grpcPort, httpPort, store: store.description, time: clock.mode, participantId: identity.participantId }, "ccwallet started");

  let closing: Promise<void> | undefined;
  return {
    grpcPort,
    httpPort,
    store,
    api,
    secret,
    network: apps.network,
    wallet: apps.wallet,
    httpRoutes: gateway.routes,
    metrics: metrics.registry,
    close: () =>
      (closing ??= (async () => {
        shuttingDown = true;
        await apps.network.automation.stop();
        await gateway.abortStreams();
        await Promise.all([closeServer(httpServer), closeHttp2(grpcServer, grpcSessions)]);
        await ledger.drain();
        // The traffic account's last second; a store that already failed loses only that.
        await api.traffic?.save().catch((e: unknown) => log.error({ err: e }, "saving the traffic account on close failed"));
        await store.close();
        log.info("ccwallet stopped");
      })()),
  };
}

/** The store, the node's identity and secret, the clock and the ledger: what every API serves. */
async function openLedgerApi(config: Config, log: Logger, metrics: NodeMetrics): Promise<{ api: LedgerApi; secret: Uint8Array }> {
  const store = await openStore(config);
  const { secret, generated } = loadOrCreateSecret(config.dataDir, config.auth.secret);
  log.info({ secret: describeSecret(secret), generated }, "HS256 secret loaded");
  const identity = await bootstrap(store, config.adminUser);
  const clock =
    config.time === "static" ? new StaticClock(BigInt((await store.setting(STATIC_TIME_SETTING)) ?? "0")) : new WallClock();
  const registry = createRegistry();
  // The DSO's party id is its hint in this node's namespace (startApps allocates it).
  const traffic = config.network.meterTraffic ? await TrafficMeter.open(store, identity.participantId, partyIdFor(DSO_PARTY_HINT, identity.namespace)) : undefined;
  const ledger = await Ledger.open(
    { store, registry, clock, maxDeduplicationSeconds: config.maxDeduplicationSeconds, onOutcome: (o, seconds) => metrics.commit(o.kind, seconds), traffic },
    (e) => log.error({ err: e }, "transaction feed reader failed"),
  );
  const api: LedgerApi = {
    ledger,
    store,
    registry,
    encoder: new LedgerProtoEncoder(registry, identity),
    identity,
    verifier: createTokenVerifier({ secret, jwksUrl: config.auth.jwksUrl, audience: config.auth.audience, participantId: identity.participantId }),
    clock,
    namespace: identity.namespace,
    apiVersion: LEDGER_API_VERSION,
    streams: new StreamLimits({ maxStreams: config.maxStreams, maxStreamsPerUser: config.maxStreamsPerUser }),
    streamPages: new StreamPageBudget({ maxBytes: config.maxStreamPageBytes, maxBytesPerOwner: config.maxStreamPageBytesPerUser, pageBytes: STREAM_PAGE_LIMITS.pageBytes }),
    streamAuthorizations: new StreamAuthorizations((id) => store.user(id)),
    completions: new CompletionHub(ledger.feed, config.offsetCheckpointIntervalMs),
    updates: new UpdateHub(ledger.feed, config.offsetCheckpointIntervalMs),
    signingKeys: new SigningKeyCache(),
    prepared: new PreparedInterpretations(),
    maxDarBytes: config.maxDarBytes,
    log,
    ...(traffic ? { traffic } : {}),
  };
  return { api, secret };
}

/** The simulated network (DSO, rounds, automation) and the wallet apps on top of the ledger. */
async function startApps(api: LedgerApi, config: Config, parts: ServerParts, log: Logger, metrics: NodeMetrics) {
  const { ledger, store, clock, identity } = api;
  // The node's own apps act through the same ledger as any client, as the validator user.
  const client = new LedgerClient(ledger, config.validatorUser, api.namespace);
  const dso = await client.allocateParty(DSO_PARTY_HINT);
  api.traffic?.exemptParty(dso);
  const topup = config.automation.topup;
  if (topup.enabled && topup.targetThroughput > 0) api.traffic?.reserveFor(config.validatorUser, BigInt(topup.reservedTraffic));
  const onboarding: OnboardingDeps = {
    store,
    namespace: api.namespace,
    validatorUser: config.validatorUser,
    installer: parts.walletInstaller?.(api) ?? ccWalletInstaller({ client, store, dso, validatorUser: config.validatorUser }),
    featured: parts.featuredAppRights?.(api) ?? ccFeaturedAppRights(client, dso),
    users: new WalletUsers(store),
    local: newWalletLocal(),
    dso,
  };
  const validator = await bootstrapValidatorOperator(onboarding);
  const { preapprovalLifetime, renewalDuration } = config.automation.transferPreapproval;
  const preapprovals = { lifetimeMicros: BigInt(preapprovalLifetime) * 1000n, renewWithinMicros: BigInt(renewalDuration) * 1000n };
  const wallet: WalletDeps = extend(onboarding, {
    client,
    clock,
    dso,
    validator,
    preapprovals,
    network: new NetworkCache(client, dso, ledger.feed),
    holdings: new HoldingsIndex(ledger.feed, store, dso),
    history: new HistoryIndex(ledger.feed, store),
    offers: OfferIndex.start(ledger.feed, store),
    transferCommands: new TransferCommandIndex(ledger.feed, store),
  });
  // The automation acts for every onboarded wallet (the operator's is one of them).
  const walletParties = () => wallet.users.walletParties();
  const network = await startNetwork({
    client,
    clock,
    network: config.network,
    synchronizerId: identity.synchronizerId,
    validator,
    genesis: tokenStandardGenesis,
    extraSteps: [...tokenStandardSteps(client), ...walletAutomationSteps(wallet, walletParties, config.automation, log, api.traffic)],
    pollMs: config.automation.pollMs,
    paused: config.automation.pausedTriggers,
    networkReader: wallet.network,
    // One line per action and per failure, named by the trigger (Splice logs each task's outcome).
    onError: (e, at) =>
      at?.willRetry
        ? log.debug({ err: e, trigger: at.trigger, attempt: at.attempt }, "trigger failed; retrying")
        : log.warn({ err: e, trigger: at?.trigger, attempt: at?.attempt }, "trigger failed; it runs again on its next tick"),
    onStepRun: (name, outcome, seconds) => {
      metrics.trigger(name, outcome, seconds);
      if (outcome === "success") log.info({ trigger: name, seconds }, "trigger acted");
    },
  });
  const v0 = walletServices({ ledger: api, wallet, log });
  return { wallet, network, v0 };
}

/** The gRPC port (HTTP/2: gRPC, gRPC-Web, Connect) and the HTTP/1.1 JSON gateway, not yet listening. */
function createListeners(
  api: LedgerApi,
  v0: ReturnType<typeof walletServices>,
  config: Config,
  options: ServerOptions,
  log: Logger,
  observed: { readonly metrics: NodeMetrics; readonly ops: OpsEndpoints; readonly secret: Uint8Array },
) {
  const admit = admitAuthenticated(api.verifier, log);
  // One set of implementations for every transport, each call timed.
  const ledgerApi = instrumentServices(ledgerServices(api), observed.metrics.rpc);
  const walletApi = instrumentServices(v0, observed.metrics.rpc);
  const services = [...ledgerApi, ...walletApi];
  const connectAdapter = connectNodeAdapter({
    routes: createRoutes(services),
    interceptors: [(next) => async (req) => (await admit(req.method, req.header.get("authorization")), next(req))],
    // Compressed requests are still accepted, but responses go out uncompressed: on loopback and
    // LAN links gzip costs both ends far more CPU than the bytes it saves (like grpc-js servers,
    // which compress only when configured to).
    compressMinBytes: Number.POSITIVE_INFINITY,
    // gRPC-Web and Connect decode as deep as the native path, so a Daml value of Canton's maximum
    // depth is accepted and a deeper one reaches the nesting check. Unknown fields are skipped,
    // not kept (one object each: 16 MiB of them was 8 million objects and 2.4 GB for 28 bytes of
    // brotli); no method reads them.
    binaryOptions: { recursionLimit: MAX_MESSAGE_NESTING, readUnknownFields: false },
    // As the native path: no request over 16 MiB, compressed or not (connect-node's default is
    // 4 GiB, and a 1 MB gzip of zeros inflated to 1 GiB before the token was looked at).
    readMaxBytes: MAX_REQUEST_MESSAGE_BYTES,
  });
  const grpcServer = http2.createServer(
    {
      // Node advertises 2^32-1 streams per connection; 31,000 header-only streams on one
      // connection from a client with no token hit nghttp2's session memory limit, and the
      // session's cleanup then aborted the process (an assertion in Node). A connection may open
      // as many streams as the node serves in all, and a little more for its unary calls.
      settings: { maxConcurrentStreams: config.maxStreams + GRPC_UNARY_STREAMS_PER_CONNECTION },
    },
    // The interceptor above runs only once connect-node has decoded the body: the token is
    // checked on the headers first. connect-node percent-encodes all of grpc-message; it is
    // re-encoded as the gRPC spec says.
    specGrpcMessageHandler(admitBeforeBody(connectAdapter, methodsByPath(services), admit)),
  );
  // Plain gRPC is served natively (native-grpc.ts); gRPC-Web and Connect stay with the adapter.
  if (options.grpcTransport !== "connect") {
    serveGrpcNatively(grpcServer, grpcRoutes(services), {
      onInternalError: (path, err) => log.error({ err, path }, "internal error in gRPC call"),
      admit: (method, headers) => admit(method, headers.authorization),
      maxRequestBytes: (method) => (isPublicMethod(method) ? MAX_PUBLIC_REQUEST_BYTES : MAX_REQUEST_MESSAGE_BYTES),
    });
  }
  const grpcSessions = trackSessions(grpcServer);
  const gateway = createGateway({
    services: [...ledgerApi, ...walletApi.map((s) => extend(s, { dialect: "splice" as const }))],
    registry: api.registry,
    listMaxElements: config.httpListMaxElements,
    listMaxBytes: config.httpListMaxBytes,
    listsMaxBytes: config.httpListsMaxBytes,
    // A socket waiting for its request frame is a stream to be: bounds of the same size (counted apart).
    maxWaitingSockets: { max: config.maxStreams, maxPerUser: config.maxStreamsPerUser },
    maxBodyBytes: config.httpMaxBodyBytes,
    maxBinaryBodyBytes: config.maxDarBytes,
    authenticate: authenticateFirst(api),
    log,
  });
  // The web UI shares the JSON port; its dev login only where nobody else can reach it (or when enabled).
  const webUi = createWebUi({
    issueToken: (user) => issueToken({ secret: observed.secret, userId: user, audience: config.auth.audience, expiresInSeconds: 12 * 3600 }),
    isPrivileged: async (user) => {
      const record = await api.store.user(user);
      return user === config.adminUser || (record !== undefined && isPrivileged(record));
    },
    // By default on a loopback listener only, and not once a real login (an OIDC issuer) is configured.
    devLogin: config.devLogin === undefined ? (isLoopbackHost(config.host) && !config.uiOidc ? "loopback" : "off") : config.devLogin ? "on" : "off",
    oidc: config.uiOidc,
  });
  const label = routeLabeler(gateway.routes, [...OPS_PATHS, "/ui/session"]);
  const httpServer = http.createServer({ requireHostHeader: false }, (req, res) => {
    const started = performance.now();
    res.once("finish", () => observed.metrics.http(label(req.method ?? "", req.url ?? ""), req.method ?? "", res.statusCode, (performance.now() - started) / 1000));
    if (refuseWithoutHost(req, res)) return;
    if (observed.ops.handle(req, res)) return;
    // A request line whose target no URL parser takes (`//`, `/\\`, `//x:99999`) is the client's
    // error: answered here (an exception here would end the process); the parsed URL is passed on.
    const url = parseRequestUrl(req.url);
    if (!url) return refuseUnparsableTarget(res);
    if (isWebUiRequest(req.method ?? "GET", url.pathname)) webUi(req, res, url);
    else gateway.handle(req, res, url);
  });
  httpServer.on("clientError", answerClientError);
  httpServer.on("upgrade", (req, socket, head) => gateway.upgrade(req, socket, head));
  // Keep-alive sockets must not hold shutdown hostage.
  httpServer.keepAliveTimeout = 5_000;
  // Sockets that never finish a request line cannot take the process's file descriptors (20,000
  // of them locked every other client out of the JSON port, and could starve the store): the port
  // holds at most HTTP_MAX_CONNECTIONS, and a request's headers must arrive within 20 s.
  httpServer.maxConnections = HTTP_MAX_CONNECTIONS;
  httpServer.headersTimeout = 20_000;
  return { grpcServer, grpcSessions, httpServer, gateway };
}

function listen(server: http.Server | http2.Http2Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function closeHttp2(server: http2.Http2Server, sessions: ReadonlySet<http2.Http2Session>): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Open streams (completion tails) would keep sessions alive forever: end them.
    for (const s of sessions) s.destroy();
  });
}

/** The server's open sessions, kept current. */
/** How many holdings each wallet party has (the metrics' sampled histogram). */
async function holdingsPerParty(wallet: WalletDeps): Promise<number[]> {
  const counts: number[] = [];
  for (const party of await wallet.users.walletParties()) {
    const h = await wallet.holdings.of(party);
    counts.push(h.amulets.length + h.locked.length);
  }
  return counts;
}
