/** Opens the configured store adapter. */
import type { Config } from "../config/index.js";
import type { Store } from "../ledger/store-port.js";
import { SqliteStore } from "./sqlite/sqlite-store.js";

export async function openStore(config: Pick<Config, "store">): Promise<Store> {
  if (config.store.kind === "sqlite") return new SqliteStore({ file: config.store.file });
  // Loaded lazily so the embedded default never touches the MongoDB driver.
  const { MongoStore } = await import("./mongodb/mongo-store.js");
  return MongoStore.connect(config.store.uri);
}
