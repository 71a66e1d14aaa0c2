import { walletErrors } from "../../../../wallet/index.js";

const stubs = new WeakSet<object>();

/** A handler for an endpoint whose use case is not there yet: 501 with the endpoint's name. */
export const notYet = (endpoint: string) => {
  const stub = async (): Promise<never> => {
    throw walletErrors.unimplemented(`${endpoint} is not implemented yet`);
  };
  stubs.add(stub);
  return stub;
};

/** Whether a handler is still a `notYet` stub (tests expect 501 exactly from those). */
export const isNotYet = (handler: unknown): boolean => typeof handler === "function" && stubs.has(handler);
