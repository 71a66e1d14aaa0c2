/**
 * The configuration contract (design.md): environment variables with defaults, validated once at
 * start. Problems are listed all together so an operator can fix them in one go.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { STREAM_PAGE_LIMITS } from "../ledger/stream-page-budget.js";
import { AutomationSchema, type AutomationConfig } from "./automation.js";
import { NetworkSchema, type NetworkConfig } from "./network.js";

const port = z.coerce.number().int().min(0).max(65535);

export const EnvSchema = z.object({
  CCWALLET_DATA_DIR: z.string().min(1).default("./data").describe("embedded store folder"),
  CCWALLET_STORE: z
    .string()
    .default("sqlite")
    .refine((s) => s === "sqlite" || s.startsWith("mongodb://") || s.startsWith("mongodb+srv://"), {
      message: "must be sqlite or a mongodb:// / mongodb+srv:// URI",
    })
    .describe("sqlite or a MongoDB URI"),
  CCWALLET_HTTP_PORT: port.default(7575).describe("JSON API (/v0, /api/validator/v0, /v2) and the UI"),
  CCWALLET_GRPC_PORT: port.default(5001).describe("gRPC / Connect / gRPC-Web (h2c)"),
  CCWALLET_HOST: z.string().default("127.0.0.1").describe("interface both ports listen on"),
  CCWALLET_AUTH_SECRET: z.string().min(16, "must be at least 16 characters").optional().describe("HS256 secret"),
  CCWALLET_AUTH_JWKS_URL: z.string().url().optional().describe("RS256/ES256 verification keys"),
  CCWALLET_AUTH_AUDIENCE: z.string().min(1).optional().describe("required aud claim"),
  CCWALLET_UI_DEV_LOGIN: z.enum(["true", "false"]).optional().describe("web UI user-name-only login (default: on when CCWALLET_HOST is loopback)"),
  CCWALLET_UI_OIDC_ISSUER: z.string().url().optional().describe("web UI login: OIDC issuer (discovery at <issuer>/.well-known/openid-configuration)"),
  CCWALLET_UI_OIDC_CLIENT_ID: z.string().min(1).optional().describe("web UI login: the public OIDC client id (authorization code + PKCE)"),
  CCWALLET_UI_OIDC_AUDIENCE: z.string().min(1).optional().describe("web UI login: audience to request (default: CCWALLET_AUTH_AUDIENCE)"),
  CCWALLET_UI_OIDC_REDIRECT_URI: z.string().url().optional().describe("web UI login: redirect URI registered at the issuer (default: the UI's origin + /)"),
  CCWALLET_UI_OIDC_SCOPE: z.string().min(1).optional().describe("web UI login: scope (default: openid daml_ledger_api)"),
  CCWALLET_ADMIN_USER: z.string().regex(/^[A-Za-z0-9@^$.!`\-#+'~_|:()]{1,128}$/).default("participant_admin"),
  CCWALLET_VALIDATOR_USER: z.string().regex(/^[A-Za-z0-9@^$.!`\-#+'~_|:()]{1,128}$/).default("administrator"),
  CCWALLET_TIME: z.enum(["wall", "static"]).default("wall"),
  CCWALLET_CONFIG: z.string().optional().describe("config file (JSON) for automation and network parameters"),
  CCWALLET_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  CCWALLET_HTTP_LIST_MAX_ELEMENTS: z.coerce.number().int().positive().default(10_000),
  CCWALLET_HTTP_LIST_MAX_BYTES: z.coerce.number().int().positive().default(32 * 1024 * 1024),
  CCWALLET_HTTP_LISTS_MAX_BYTES: z.coerce.number().int().positive().default(256 * 1024 * 1024),
  CCWALLET_HTTP_MAX_BODY_BYTES: z.coerce.number().int().positive().default(4 * 1024 * 1024),
});

export const FileSchema = z
  .strictObject({
    ledger: z
      .strictObject({
        maxDeduplicationSeconds: z.number().int().positive().default(7 * 24 * 3600),
        maxStreams: z.number().int().positive().default(1000),
        maxStreamsPerUser: z.number().int().positive().default(200),
        /** Bytes of store pages the open streams hold at once (stream-page-budget.ts); at least one page. */
        maxStreamPageBytes: z.number().int().min(STREAM_PAGE_LIMITS.pageBytes).default(STREAM_PAGE_LIMITS.maxBytes),
        maxStreamPageBytesPerUser: z.number().int().min(STREAM_PAGE_LIMITS.pageBytes).default(STREAM_PAGE_LIMITS.maxBytesPerOwner),
        offsetCheckpointIntervalMs: z.number().int().positive().default(5000),
        /** Largest DAR an upload may send (bytes), on both ports; the JSON body limit does not apply to it. */
        maxDarBytes: z.number().int().positive().default(64 * 1024 * 1024),
      })
      .partial()
      .default({}),
    network: NetworkSchema,
    automation: AutomationSchema,
    ui: z
      .strictObject({
        oidc: z
          .strictObject({
            issuer: z.string().url(),
            clientId: z.string().min(1),
            audience: z.string().min(1).optional(),
            redirectUri: z.string().url().optional(),
            scope: z.string().min(1).optional(),
          })
          .optional(),
      })
      .default({}),
  });

export interface Config {
  readonly dataDir: string;
  readonly store: { readonly kind: "sqlite"; readonly file: string } | { readonly kind: "mongodb"; readonly uri: string };
  readonly host: string;
  readonly httpPort: number;
  readonly grpcPort: number;
  readonly auth: { readonly secret?: string; readonly jwksUrl?: string; readonly audience?: string };
  /** The web UI's dev login; undefined: on exactly when the node listens on loopback. */
  readonly devLogin?: boolean;
  /** The web UI's OIDC login (authorization code + PKCE), when an issuer is configured. */
  readonly uiOidc?: UiOidcConfig;
  readonly adminUser: string;
  readonly validatorUser: string;
  readonly time: "wall" | "static";
  readonly logLevel: string;
  readonly httpListMaxElements: number;
  /** Bytes of JSON an array endpoint answers at most (413 past it): the answer is held in memory until the client reads it. */
  readonly httpListMaxBytes: number;
  /** Bytes of array answers held at once across all requests (PARTICIPANT_BACKPRESSURE past it). */
  readonly httpListsMaxBytes: number;
  readonly httpMaxBodyBytes: number;
  /** Largest DAR upload (bytes), `ledger.maxDarBytes`. */
  readonly maxDarBytes: number;
  readonly maxDeduplicationSeconds: bigint;
  /** Streams open at once, overall (Canton's `rate-limit.max-streams`, default 1000) and per user. */
  readonly maxStreams: number;
  readonly maxStreamsPerUser: number;
  /** Bytes of store pages the open streams hold at once, overall and per user. */
  readonly maxStreamPageBytes: number;
  readonly maxStreamPageBytesPerUser: number;
  /** How often a stream with nothing to say sends an offset checkpoint when the ledger moved on. */
  readonly offsetCheckpointIntervalMs: number;
  readonly network: NetworkConfig;
  readonly automation: AutomationConfig;
}

export interface UiOidcConfig {
  readonly issuer: string;
  readonly clientId: string;
  readonly audience?: string;
  readonly redirectUri?: string;
  readonly scope?: string;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  let file: z.infer<typeof FileSchema> = FileSchema.parse({});
  if (e.CCWALLET_CONFIG) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(e.CCWALLET_CONFIG, "utf8"));
    } catch (err) {
      throw new ConfigError(`CCWALLET_CONFIG ${e.CCWALLET_CONFIG}: ${(err as Error).message}`);
    }
    const f = FileSchema.safeParse(raw);
    if (!f.success) {
      throw new ConfigError(`invalid config file ${e.CCWALLET_CONFIG}:\n${f.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n")}`);
    }
    file = f.data;
  }
  const dataDir = resolve(e.CCWALLET_DATA_DIR);
  const uiOidc = uiOidcOf(e, file.ui?.oidc);
  return {
    dataDir,
    store: e.CCWALLET_STORE === "sqlite" ? { kind: "sqlite", file: resolve(dataDir, "ledger.sqlite") } : { kind: "mongodb", uri: e.CCWALLET_STORE },
    host: e.CCWALLET_HOST,
    httpPort: e.CCWALLET_HTTP_PORT,
    grpcPort: e.CCWALLET_GRPC_PORT,
    auth: { secret: e.CCWALLET_AUTH_SECRET, jwksUrl: e.CCWALLET_AUTH_JWKS_URL, audience: e.CCWALLET_AUTH_AUDIENCE },
    devLogin: e.CCWALLET_UI_DEV_LOGIN === undefined ? undefined : e.CCWALLET_UI_DEV_LOGIN === "true",
    uiOidc,
    adminUser: e.CCWALLET_ADMIN_USER,
    validatorUser: e.CCWALLET_VALIDATOR_USER,
    time: e.CCWALLET_TIME,
    logLevel: e.CCWALLET_LOG_LEVEL,
    httpListMaxElements: e.CCWALLET_HTTP_LIST_MAX_ELEMENTS,
    httpListMaxBytes: e.CCWALLET_HTTP_LIST_MAX_BYTES,
    httpListsMaxBytes: e.CCWALLET_HTTP_LISTS_MAX_BYTES,
    httpMaxBodyBytes: e.CCWALLET_HTTP_MAX_BODY_BYTES,
    maxDeduplicationSeconds: BigInt(file.ledger?.maxDeduplicationSeconds ?? 7 * 24 * 3600),
    maxStreams: file.ledger?.maxStreams ?? 1000,
    maxStreamsPerUser: file.ledger?.maxStreamsPerUser ?? 200,
    maxStreamPageBytes: file.ledger?.maxStreamPageBytes ?? STREAM_PAGE_LIMITS.maxBytes,
    maxStreamPageBytesPerUser: file.ledger?.maxStreamPageBytesPerUser ?? STREAM_PAGE_LIMITS.maxBytesPerOwner,
    offsetCheckpointIntervalMs: file.ledger?.offsetCheckpointIntervalMs ?? 5000,
    maxDarBytes: file.ledger?.maxDarBytes ?? 64 * 1024 * 1024,
    network: file.network,
    automation: file.automation,
  };
}

/** The UI's OIDC settings: env over the config file's `ui.oidc`; an issuer needs a client id and a JWKS to verify its tokens. */
function uiOidcOf(e: z.infer<typeof EnvSchema>, fromFile: Partial<UiOidcConfig> | undefined): UiOidcConfig | undefined {
  const issuer = e.CCWALLET_UI_OIDC_ISSUER ?? fromFile?.issuer;
  if (issuer === undefined) return undefined;
  const clientId = e.CCWALLET_UI_OIDC_CLIENT_ID ?? fromFile?.clientId;
  const problems: string[] = [];
  if (clientId === undefined) problems.push("  CCWALLET_UI_OIDC_CLIENT_ID: required with an OIDC issuer");
  if (e.CCWALLET_AUTH_JWKS_URL === undefined) problems.push("  CCWALLET_AUTH_JWKS_URL: required with an OIDC issuer (its jwks_uri), or the node cannot verify the tokens");
  if (problems.length) throw new ConfigError(`invalid configuration:\n${problems.join("\n")}`);
  const audience = e.CCWALLET_UI_OIDC_AUDIENCE ?? fromFile?.audience ?? e.CCWALLET_AUTH_AUDIENCE;
  const redirectUri = e.CCWALLET_UI_OIDC_REDIRECT_URI ?? fromFile?.redirectUri;
  const scope = e.CCWALLET_UI_OIDC_SCOPE ?? fromFile?.scope;
  return { issuer, clientId: clientId!, ...(audience ? { audience } : {}), ...(redirectUri ? { redirectUri } : {}), ...(scope ? { scope } : {}) };
}
