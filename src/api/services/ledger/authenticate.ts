/**
 * Per-call authentication: the bearer token names a user, who must exist and be active. The
 * returned user's rights decide what the call may do.
 *
 * The JSON gateways check the caller before they read a body, to refuse a bad caller first; the
 * method looks the caller up again once its request has arrived. A body or a WebSocket request
 * frame may come minutes after the headers, and rights revoked, a user deactivated or deleted
 * meanwhile must count, as they do for a request sent after the change.
 */
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { PackageManagementService } from "../../../../gen/com/daml/ledger/api/v2/admin/package_management_service_pb.js";
import { requireAdmin } from "../../../auth/index.js";
import { authorizationHeader } from "../call-token.js";
import { isPublicMethod } from "../call-admission.js";
import { toConnectError } from "./connect-error.js";
import { errors } from "../../../ledger/errors.js";
import type { UserRecord } from "../../../ledger/records.js";
import type { LedgerApi } from "./ledger-api.js";

const callers = new WeakMap<HandlerContext, Promise<UserRecord>>();

/** The caller of a method whose request has arrived, found once per call (a method may ask twice). */
export function authenticate(api: LedgerApi, ctx: HandlerContext): Promise<UserRecord> {
  let caller = callers.get(ctx);
  if (!caller) callers.set(ctx, (caller = callerOf(api, ctx)));
  return caller;
}

async function callerOf(api: LedgerApi, ctx: HandlerContext): Promise<UserRecord> {
  const token = await api.verifier.verify(authorizationHeader(ctx));
  const user = await api.store.user(token.userId);
  if (!user) throw errors.permissionDenied(`user ${token.userId} does not exist`);
  if (user.isDeactivated) throw errors.permissionDenied(`user ${token.userId} is deactivated`);
  // This node's tokens are its default identity provider's (one secret or one key set): a user
  // assigned to another provider is not theirs to authenticate, as in Canton.
  if (user.identityProviderId) throw errors.permissionDenied(`User is assigned to another identity provider: ${user.identityProviderId}`);
  return user;
}

/**
 * The JSON gateway's first step for a `/v2` route: the caller's token and user, checked before
 * the body is read (Canton authenticates, then authorizes, then validates). The public methods are
 * the same list the gRPC port admits without a token (call-admission.ts). Only a refusal counts:
 * the route's method finds its caller again after the body (see above).
 * Services only participant admins may call are authorized here too, before a DAR of megabytes is
 * read for a caller who may not upload it.
 */
const ADMIN_ONLY = new Set([PackageManagementService.typeName]);

export function authenticateFirst(api: LedgerApi): (route: { readonly service: DescService; readonly method: DescMethod }, ctx: HandlerContext) => Promise<string | undefined> {
  return async (route, ctx) => {
    if (isPublicMethod(route.method)) return undefined;
    try {
      const user = await callerOf(api, ctx);
      if (ADMIN_ONLY.has(route.service.typeName)) requireAdmin(user);
      return user.id;
    } catch (e) {
      throw toConnectError(e, api.log);
    }
  };
}
