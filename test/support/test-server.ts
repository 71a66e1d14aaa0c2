/**
 * A real ccwallet on ephemeral ports with a fresh data dir, plus helpers to mint tokens and
 * set up parties and users through the public API (no shortcuts into internals).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { issueToken } from "../../src/auth/index.js";
import { loadConfig } from "../../src/config/index.js";
import { startServer, type RunningServer } from "../../src/server.js";

export interface TestServer {
  readonly server: RunningServer;
  readonly http: string;
  readonly grpc: string;
  readonly dataDir: string;
  token(user: string, expiresInSeconds?: number): Promise<string>;
  adminToken(): Promise<string>;
  /** Allocates a party and a user that can act as it; returns both and a token. */
  partyUser(hint: string): Promise<{ party: string; user: string; token: string }>;
  /** JSON call on the HTTP port; returns status, parsed body (or text) and headers. */
  json(method: string, path: string, body?: unknown, token?: string | null): Promise<{ status: number; body: any; text: string }>;
  stop(): Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}, dataDir?: string): Promise<TestServer> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), "ccwallet-test-"));
  const config = loadConfig({
    CCWALLET_DATA_DIR: dir,
    CCWALLET_HTTP_PORT: "0",
    CCWALLET_GRPC_PORT: "0",
    CCWALLET_LOG_LEVEL: "silent",
    ...env,
  });
  const server = await startServer(config);
  const http = `http://127.0.0.1:${server.httpPort}`;
  const token = (user: string, expiresInSeconds?: number) => issueToken({ secret: server.secret, userId: user, expiresInSeconds });
  const adminToken = () => token(config.adminUser);
  const json: TestServer["json"] = async (method, path, body, tok) => {
    const t = tok === undefined ? await adminToken() : tok;
    const res = await fetch(http + path, {
      method,
      headers: { ...(t ? { authorization: `Bearer ${t}` } : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // text/plain errors stay text
    }
    return { status: res.status, body: parsed, text };
  };
  let n = 0;
  const partyUser = async (hint: string) => {
    const unique = `${hint}-${process.pid}-${++n}`;
    const p = await json("POST", "/v2/parties", { partyIdHint: unique });
    if (p.status !== 200) throw new Error(`allocate party failed: ${p.text}`);
    const party = p.body.partyDetails.party as string;
    const u = await json("POST", "/v2/users", {
      user: { id: unique, primaryParty: party },
      rights: [{ kind: { CanActAs: { value: { party } } } }],
    });
    if (u.status !== 200) throw new Error(`create user failed: ${u.text}`);
    return { party, user: unique, token: await token(unique) };
  };
  return {
    server,
    http,
    grpc: `http://127.0.0.1:${server.grpcPort}`,
    dataDir: dir,
    token,
    adminToken,
    partyUser,
    json,
    async stop() {
      await server.close();
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const IOU = "#ccwallet-demo:Ccwallet.Demo.Iou:Iou";
export const ACCOUNT = "#ccwallet-demo:Ccwallet.Demo.Account:Account";
export const ASSET = "#ccwallet-demo:Ccwallet.Demo.Asset:Asset";

export function createIou(party: string, amount = "10", owner = party, commandId = `c-${Math.random().toString(36).slice(2)}`) {
  return {
    commands: {
      commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: party, owner, currency: "CC", amount, observers: [] } } }],
      commandId,
      actAs: [party],
    },
  };
}
