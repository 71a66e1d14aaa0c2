/**
 * A bench's results file: bench/results/<name>.json, or <name>-quick.json for a smoke run, so a
 * smoke run does not overwrite the full run's numbers.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const benchDir = dirname(dirname(fileURLToPath(import.meta.url)));

/** Writes `data` as JSON (bigints as strings); returns the file's absolute path. */
export function writeResultsFile(name: string, quick: boolean, data: object): string {
  const dir = join(benchDir, "results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}${quick ? "-quick" : ""}.json`);
  writeFileSync(file, JSON.stringify(data, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2) + "\n");
  return file;
}

/** A path relative to the repository (for messages that should not depend on the checkout). */
export const inRepo = (path: string): string => relative(dirname(benchDir), path);
