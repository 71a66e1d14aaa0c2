export type * from "../ledger/store-port.js";
export { SqliteStore } from "./sqlite/sqlite-store.js";
export { openStore } from "./open-store.js";
