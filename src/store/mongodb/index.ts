export { MongoStore } from "./mongo-store.js";
export type { MongoStoreOptions } from "./mongo-store.js";
