import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Suites start real servers on ephemeral ports; files run in parallel workers.
    pool: "forks",
    // A worker runs its files in one module graph: src/ and gen/ are imported once per worker, not
    // once per file (importing them was most of the suite's time). Tests therefore keep no state in
    // modules: each builds its own server, store or WalletDeps (src/ keeps none either).
    isolate: false,
  },
});
