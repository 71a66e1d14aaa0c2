// Writer-thread bootstrap: worker threads do not inherit a TypeScript loader (tsx's, or
// vitest's), so the TypeScript entry is loaded through tsx's API.
import { tsImport } from "tsx/esm/api";

await tsImport("./writer-thread.ts", import.meta.url);
