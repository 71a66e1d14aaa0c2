/**
 * The HS256 secret: from CCWALLET_AUTH_SECRET, or generated once into the data dir (mode 0600)
 * and read from there on later starts, so tokens stay valid across restarts.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const SECRET_FILE = "auth-secret";

export function loadOrCreateSecret(dataDir: string, configured: string | undefined): { secret: Uint8Array; generated: boolean } {
  if (configured) return { secret: new TextEncoder().encode(configured), generated: false };
  const file = join(dataDir, SECRET_FILE);
  try {
    return { secret: new TextEncoder().encode(readFileSync(file, "utf8").trim()), generated: false };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  mkdirSync(dataDir, { recursive: true });
  const value = randomBytes(32).toString("base64url");
  // "wx": never overwrite a secret another process wrote meanwhile.
  try {
    writeFileSync(file, value + "\n", { mode: 0o600, flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return loadOrCreateSecret(dataDir, undefined);
    throw e;
  }
  return { secret: new TextEncoder().encode(value), generated: true };
}

/** For logs: enough to tell secrets apart, never enough to use one. */
export function describeSecret(secret: Uint8Array): string {
  const text = new TextDecoder().decode(secret);
  return `${text.slice(0, 4)}… (${text.length} chars)`;
}
