export { createRoutes, ledgerServices } from "./create-routes.js";
export type { LedgerApi } from "./ledger-api.js";
export { toConnectError } from "./connect-error.js";
export { STATIC_TIME_SETTING } from "./time-service.js";
