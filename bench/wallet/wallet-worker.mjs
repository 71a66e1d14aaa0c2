// Worker-thread bootstrap: worker threads do not inherit tsx's loader, so load the TypeScript
// entry through tsx's API.
import { tsImport } from "tsx/esm/api";

await tsImport("./wallet-worker.ts", import.meta.url);
