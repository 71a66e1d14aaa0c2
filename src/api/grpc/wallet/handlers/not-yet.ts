import { walletErrors } from "../../../../wallet/index.js";

/** A handler for an endpoint whose use case is not there yet: 501 with the endpoint's name. */
export const notYet =
  (endpoint: string) =>
  async (): Promise<never> => {
    throw walletErrors.unimplemented(`${endpoint} is not implemented yet`);
  };
