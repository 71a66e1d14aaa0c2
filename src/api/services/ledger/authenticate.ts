/**
 * Per-call authentication: the bearer token names a user, who must exist and be active. The
 * returned user's rights decide what the call may do.
 */
import type { HandlerContext } from "@connectrpc/connect";
import { errors } from "../../../ledger/errors.js";
import type { UserRecord } from "../../../ledger/records.js";
import type { LedgerApi } from "./ledger-api.js";

export async function authenticate(api: LedgerApi, ctx: HandlerContext): Promise<UserRecord> {
  const token = await api.verifier.verify(ctx.requestHeader.get("authorization"));
  const user = await api.store.user(token.userId);
  if (!user) throw errors.permissionDenied(`user ${token.userId} does not exist`);
  if (user.isDeactivated) throw errors.permissionDenied(`user ${token.userId} is deactivated`);
  return user;
}
