/**
 * The README's configuration reference names every environment variable and every config-file
 * key the schemas accept (map entries as `<party>`), so a new key cannot ship undocumented.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { EnvSchema, FileSchema, loadConfig } from "../../src/config/config.js";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

interface Def {
  readonly type: string;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly shape?: Record<string, z.ZodType>;
}
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Every key path under `schema`: wrappers (default, optional, pipes) looked through, map values as `<party>`. */
function keyPaths(schema: z.ZodType, prefix: string): string[] {
  const def = defOf(schema);
  if (def.innerType) return keyPaths(def.innerType, prefix);
  if (def.type === "pipe" && def.in) return keyPaths(def.in, prefix);
  if (def.type === "record" && def.valueType) return keyPaths(def.valueType, `${prefix}.<party>`);
  if (def.type !== "object" || !def.shape) return [];
  return Object.entries(def.shape).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    return [path, ...keyPaths(v, path)];
  });
}

/** README writes map keys as `<sender>` / `<receiver>`. */
const documented = (path: string) => [path, path.replace("<party>", "<sender>"), path.replace("<party>", "<receiver>")].some((p) => readme.includes(`\`${p}\``));

describe("README configuration reference", () => {
  it("names every CCWALLET_* environment variable", () => {
    const vars = Object.keys(defOf(EnvSchema).shape!);
    expect(vars.length).toBeGreaterThan(15);
    expect(vars.filter((v) => !readme.includes(`| \`${v}\` |`))).toEqual([]);
  });

  it("names every key of the config file", () => {
    const paths = keyPaths(FileSchema, "");
    expect(paths).toContain("automation.walletSweep.<party>.maxBalanceUSD");
    expect(paths).toContain("network.issuance.validatorFaucetCapUsd");
    expect(paths.filter((p) => !documented(p))).toEqual([]);
  });
});

describe("README example config file", () => {
  it("loads as written", () => {
    const after = readme.slice(readme.indexOf("A complete file"));
    const json = after.slice(after.indexOf("```json") + 7, after.indexOf("```", after.indexOf("```json") + 7));
    const file = join(mkdtempSync(join(tmpdir(), "ccwallet-readme-")), "config.json");
    writeFileSync(file, json);
    const config = loadConfig({ CCWALLET_CONFIG: file, CCWALLET_AUTH_JWKS_URL: "https://login.example.com/jwks" });
    expect(Object.keys(config.automation.walletSweep)).toHaveLength(1);
    expect(config.automation.mergeThreshold).toBe(10);
    expect(config.uiOidc?.clientId).toBe("ccwallet-ui");
  });
});
