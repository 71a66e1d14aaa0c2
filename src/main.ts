/**
 * CLI: `serve` starts the node; `token <user> [--expires-in SECONDS]` prints a JWT for that user
 * signed with the configured (or generated) HS256 secret. The running node logs with pino; a
 * command that cannot start (bad configuration or arguments) says why on stderr, in plain text.
 */
import pino from "pino";
import { issueToken, loadOrCreateSecret } from "./auth/index.js";
import { ConfigError, loadConfig } from "./config/index.js";
import { startServer } from "./server.js";

async function serve(): Promise<void> {
  const config = loadConfig();
  const log = pino({ level: config.logLevel, base: undefined });
  const server = await startServer(config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    server.close().then(
      () => process.exit(0),
      (e: unknown) => {
        log.fatal({ err: e }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

async function token(args: string[]): Promise<void> {
  const user = args.find((a) => !a.startsWith("--"));
  if (!user) throw new ConfigError("usage: npm run token -- <user> [--expires-in SECONDS]");
  const i = args.indexOf("--expires-in");
  const expiresInSeconds = i >= 0 ? Number(args[i + 1]) : undefined;
  if (expiresInSeconds !== undefined && !(expiresInSeconds > 0)) throw new ConfigError("--expires-in must be a positive number of seconds");
  const config = loadConfig();
  const { secret } = loadOrCreateSecret(config.dataDir, config.auth.secret);
  process.stdout.write((await issueToken({ secret, userId: user, expiresInSeconds, audience: config.auth.audience })) + "\n");
}

const [command = "serve", ...rest] = process.argv.slice(2);
const run = command === "serve" ? serve() : command === "token" ? token(rest) : Promise.reject(new ConfigError(`unknown command ${command}; use serve or token`));
run.catch((e: unknown) => {
  process.stderr.write(`${e instanceof ConfigError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(e instanceof ConfigError ? 2 : 1);
});
