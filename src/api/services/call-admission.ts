/**
 * Authentication at the edge of every service, before the request body is decoded or validated:
 * Canton and Splice authenticate first, then authorize, then validate, so a caller without a
 * valid token learns nothing about its request (and a garbled body cannot turn a missing token
 * into a parse error). Authorization and validation stay with the methods, which see the token's
 * user; the verifier caches a token, so the method's own check costs a map lookup.
 */
import type { DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { TokenVerifier } from "../../auth/index.js";
import { LedgerError } from "../../ledger/errors.js";
import { toConnectError, type ErrorLog } from "./ledger/connect-error.js";

/** Services any caller may use without a token: Canton's version service and Splice's public registry. */
const PUBLIC_SERVICES = new Set(["com.daml.ledger.api.v2.VersionService", "ccwallet.validator.v0.TokenStandardRegistryService"]);
/** Single public methods of otherwise authenticated services (Splice's `GET /v0/validator-user`). */
const PUBLIC_METHODS = new Set(["ccwallet.validator.v0.ValidatorService/GetValidatorUserInfo"]);

export function isPublicMethod(method: DescMethod): boolean {
  const service = method.parent.typeName;
  return PUBLIC_SERVICES.has(service) || PUBLIC_METHODS.has(`${service}/${method.name}`);
}

/** Refuses a call to a non-public method whose `authorization` header is missing or does not verify. */
export function admitAuthenticated(verifier: TokenVerifier, log: ErrorLog) {
  return async (method: DescMethod, authorization: string | null | undefined): Promise<void> => {
    if (isPublicMethod(method)) return;
    try {
      await verifier.verify(authorization);
    } catch (e) {
      // The /v0 services speak Splice; their handlers word the same failure this way.
      if (method.parent.typeName.startsWith("ccwallet.") && e instanceof LedgerError) {
        throw new ConnectError(`missing or invalid bearer token: ${e.message.replace(/^[^:]*: /, "")}`, Code.Unauthenticated);
      }
      throw toConnectError(e, log);
    }
  };
}
