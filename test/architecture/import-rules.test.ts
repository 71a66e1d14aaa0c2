/**
 * The import rule of ARCHITECTURE.md, checked on every `npm test`: each file of src/ belongs to a
 * layer (by folder), a layer imports only the layers and packages its row allows, the allowances
 * form no cycle, and no two files import each other, directly or around a loop.
 *
 * Imports are read with TypeScript's own pre-processor (static, dynamic and type-only imports and
 * re-exports; comments and strings are not mistaken for imports), so the check needs nothing the
 * project does not already have.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT, sourceFiles } from "../support/source-files.js";

/** Layers by folder, most specific first: the first prefix a file's path starts with names its layer. */
const LAYERS: readonly (readonly [prefix: string, layer: string])[] = [
  ["src/util/", "util"],
  ["src/ledger/", "ledger"],
  ["src/templates/", "templates"],
  ["src/config/", "config"],
  ["src/auth/", "auth"],
  ["src/store/", "store"],
  ["src/network/", "network"],
  ["src/automation/", "automation"],
  ["src/registry/", "registry"],
  ["src/dso/", "dso"],
  ["src/external/", "external"],
  ["src/dar/", "dar"],
  ["src/ops/", "ops"],
  ["src/wallet/index.ts", "wallet/index"],
  ["src/wallet/use-cases/", "wallet/use-cases"],
  ["src/wallet/automation/", "wallet/automation"],
  ["src/wallet/", "wallet"],
  ["src/api/convert/", "api/convert"],
  ["src/api/services/", "api/services"],
  ["src/api/context/", "api/context"],
  ["src/api/grpc-native/", "api/grpc-native"],
  ["src/api/http/", "api/http"],
  ["src/", "app"],
  ["gen/", "gen"],
];

/** Which layers (besides itself and `util`, open to all) a layer may import. `app` (main, server, bootstrap) composes everything. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  util: [],
  ledger: [],
  templates: ["ledger"],
  config: ["ledger"],
  auth: ["ledger"],
  store: ["ledger", "config"],
  network: ["ledger", "templates"],
  automation: ["ledger", "network"],
  registry: ["ledger", "templates", "network"],
  dso: ["ledger", "templates", "config", "network", "automation"],
  external: [],
  dar: ["ledger"],
  ops: [],
  wallet: ["ledger", "templates", "network", "registry"],
  "wallet/use-cases": ["ledger", "templates", "network", "registry", "wallet"],
  "wallet/automation": ["ledger", "templates", "config", "network", "automation", "wallet", "wallet/use-cases"],
  "wallet/index": ["wallet", "wallet/use-cases"],
  "api/convert": ["ledger", "gen"],
  "api/services": ["ledger", "templates", "auth", "network", "registry", "external", "dar", "wallet", "wallet/use-cases", "wallet/index", "api/convert", "gen"],
  "api/context": [],
  "api/grpc-native": ["api/context", "api/convert", "gen"],
  "api/http": ["ledger", "wallet/index", "api/context", "api/convert", "api/services", "gen"],
  app: ["*"],
  gen: ["*"],
};

/** npm packages a layer may import (`node:` built-ins are open to all): the domain knows no protobuf, RPC or database. */
const PACKAGES: Readonly<Record<string, readonly string[]>> = {
  config: ["zod"],
  auth: ["jose"],
  store: ["better-sqlite3", "mongodb"],
  ops: ["prom-client"],
  // Resolved by path for the signature worker, which requires it (signature-worker.ts).
  external: ["sodium-native"],
  dar: ["fflate", "@bufbuild/protobuf"],
  "api/convert": ["@bufbuild/protobuf"],
  "api/services": ["@bufbuild/protobuf", "@connectrpc/connect", "pino"],
  "api/context": ["@bufbuild/protobuf", "@connectrpc/connect"],
  "api/grpc-native": ["@bufbuild/protobuf", "@connectrpc/connect"],
  "api/http": ["@bufbuild/protobuf", "@connectrpc/connect", "pino", "ws"],
  app: ["*"],
  gen: ["*"],
};

function layerOf(file: string): string {
  const hit = LAYERS.find(([prefix]) => file === prefix || file.startsWith(prefix));
  if (!hit) throw new Error(`no layer for ${file}`);
  return hit[1];
}

/** A relative specifier (`./x.js`, `../y/index.js`) to the repository path of its .ts file. */
function resolve(from: string, spec: string): string | undefined {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const candidate of [target.replace(/\.js$/, ".ts"), target, `${target}.ts`, `${target}/index.ts`]) {
    if (candidate.endsWith(".ts") && fs.existsSync(path.join(ROOT, candidate))) return candidate;
  }
  return undefined;
}

const packageOf = (spec: string) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);

interface Graph {
  readonly files: readonly string[];
  readonly edges: ReadonlyMap<string, readonly string[]>;
  readonly problems: string[];
}

function readGraph(): Graph {
  const files = sourceFiles("src");
  const edges = new Map<string, string[]>();
  const problems: string[] = [];
  for (const file of files) {
    const layer = layerOf(file);
    const targets: string[] = [];
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(path.join(ROOT, file), "utf8"), true, true);
    for (const { fileName: spec } of importedFiles) {
      if (spec.startsWith("node:")) continue;
      if (!spec.startsWith(".")) {
        const allowed = PACKAGES[layer] ?? [];
        if (!allowed.includes("*") && !allowed.includes(packageOf(spec))) problems.push(`${file} (${layer}) imports package ${spec}`);
        continue;
      }
      const target = resolve(file, spec);
      if (!target) {
        problems.push(`${file} imports ${spec}, which resolves to no .ts file`);
        continue;
      }
      const to = layerOf(target);
      const allowed = ALLOWED[layer] ?? [];
      if (to !== layer && to !== "util" && !allowed.includes("*") && !allowed.includes(to)) problems.push(`${file} (${layer}) imports ${target} (${to})`);
      if (target.startsWith("src/")) targets.push(target);
    }
    edges.set(file, targets);
  }
  return { files, edges, problems };
}

/** Strongly connected components with more than one file (or a file importing itself): Tarjan. */
function cycles(files: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found;
}

describe("the import rule (ARCHITECTURE.md)", () => {
  const graph = readGraph();

  it("reads every file of src/ and finds its layer", () => {
    expect(graph.files.length).toBeGreaterThan(200);
    for (const f of graph.files) expect(ALLOWED[layerOf(f)], f).toBeDefined();
  });

  it("allows no cycle between layers", () => {
    const order: string[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (layer: string, trail: string[]) => {
      if (state.get(layer) === "done") return;
      if (state.get(layer) === "visiting") throw new Error(`layers allow each other: ${[...trail, layer].join(" -> ")}`);
      state.set(layer, "visiting");
      for (const to of ALLOWED[layer] ?? []) if (to !== "*") visit(to, [...trail, layer]);
      state.set(layer, "done");
      order.push(layer);
    };
    for (const layer of Object.keys(ALLOWED)) visit(layer, []);
    expect(order).toHaveLength(Object.keys(ALLOWED).length);
  });

  it("has every import go down the layers, to allowed packages only", () => {
    expect(graph.problems).toEqual([]);
  });

  it("has no import cycle between files", () => {
    expect(cycles(graph.files, graph.edges)).toEqual([]);
  });
});
