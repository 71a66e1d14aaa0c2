import { defineConfig } from "vitest/config";

const common = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // Suites start real servers on ephemeral ports; files run in parallel workers.
  pool: "forks",
} as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...common,
          name: "node",
          include: ["test/**/*.test.ts"],
          exclude: ["test/sdk/**"],
          // A worker runs its files in one module graph: src/ and gen/ are imported once per worker, not
          // once per file (importing them was most of the suite's time). Tests therefore keep no state in
          // modules: each builds its own server, store or WalletDeps (src/ keeps none either).
          isolate: false,
        },
      },
      {
        // The Canton wallet SDK targets Node 22: its suite gets Node-20 shims (client side only) and
        // a worker with the WebSocket global its events namespace uses.
        test: {
          ...common,
          name: "sdk",
          include: ["test/sdk/**/*.test.ts"],
          setupFiles: ["test/sdk/node20-shims.ts"],
          execArgv: ["--experimental-websocket"],
        },
      },
    ],
  },
});
