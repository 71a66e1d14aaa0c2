import { walletErrors } from "../../../../wallet/index.js";

/** A handler for an endpoint whose use case is not there yet: 501 with the endpoint's name. */
export const notYet = (endpoint: string) =>
  Object.assign(
    async (): Promise<never> => {
      throw walletErrors.unimplemented(`${endpoint} is not implemented yet`);
    },
    { stub: true as const },
  );

/** Whether a handler is still a `notYet` stub (lets the route tests follow progress). */
export const isStub = (handler: unknown): boolean => typeof handler === "function" && (handler as { stub?: boolean }).stub === true;
