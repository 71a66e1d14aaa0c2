import { walletErrors } from "../../../../wallet/index.js";

const NOT_YET = Symbol("notYet");

/** A handler for an endpoint whose use case is not there yet: 501 with the endpoint's name. */
export const notYet = (endpoint: string) =>
  Object.assign(
    async (): Promise<never> => {
      throw walletErrors.unimplemented(`${endpoint} is not implemented yet`);
    },
    { [NOT_YET]: endpoint },
  );

/** Whether a handler is still a `notYet` stub (tests list the endpoints that must answer 501). */
export const isNotYet = (handler: unknown): boolean => typeof handler === "function" && NOT_YET in handler;
