// The wallet UI's build: Preact (3 KB runtime) via its Vite preset; output in web/dist, served by the node.
import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  base: "/",
  plugins: [preact()],
  build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
});
