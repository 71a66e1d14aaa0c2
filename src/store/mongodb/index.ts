export { MongoStore } from "./mongo-store.js";
export type { MongoStoreOptions } from "./mongo-store.js";
export { CommitOutcomeUnknownError } from "./commit-outcome.js";
export { DocumentTooLargeError } from "./document-size.js";
export { DEFAULT_COMMIT_TIMEOUT_MS } from "./durability.js";
