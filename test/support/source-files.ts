/** The repository's TypeScript sources, for the architecture tests that read them. */
import fs from "node:fs";
import path from "node:path";

/** The repository root. */
export const ROOT = path.resolve(import.meta.dirname, "../..");

/** Every `.ts` file under `dir` (a path from the root), as paths from the root. */
export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    return e.isDirectory() ? sourceFiles(rel) : rel.endsWith(".ts") ? [rel] : [];
  });
}
