/** Facts about a bench run, for its header line and results file: machine, load, commit. */
import { execSync } from "node:child_process";
import os from "node:os";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** `<title> (QUICK smoke run): node …, cores × model, load avg …` — first line of every bench. */
export function headerLine(title: string, quick: boolean): string {
  return `${title} ${quick ? "(QUICK smoke run)" : ""}: node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, load avg ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}`;
}

/** The checkout's short commit, or undefined outside git. */
export function gitCommit(): string | undefined {
  try {
    const cwd = dirname(fileURLToPath(import.meta.url));
    return execSync("git rev-parse --short HEAD", { cwd, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
  } catch {
    return undefined;
  }
}
