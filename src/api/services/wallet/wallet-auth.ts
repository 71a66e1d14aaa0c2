/**
 * Who may call a `/v0` endpoint, from the bearer token in the request: any valid token, an
 * onboarded wallet user, or the validator operator (or a participant admin). Failures are
 * `unauthenticated` (no or bad token, 401) or `forbidden` (the wrong user, 403).
 */
import type { HandlerContext } from "@connectrpc/connect";
import { Category, LedgerError } from "../../../ledger/errors.js";
import { authorizationHeader } from "../call-token.js";
import { findWalletUser, isValidatorAdmin, walletErrors, type WalletUser } from "../../../wallet/index.js";
import type { WalletApi } from "./wallet-api.js";

/** The user id of a verified token (the user need not exist: `/v0/register` creates it). */
export async function tokenUser(api: WalletApi, ctx: HandlerContext): Promise<string> {
  try {
    return (await api.ledger.verifier.verify(authorizationHeader(ctx))).userId;
  } catch (e) {
    // The verifier speaks Canton ("The command is missing a (valid) JWT token: <why>"): keep the why.
    if (e instanceof LedgerError && e.category === Category.AuthInterceptorInvalidAuthenticationCredentials) {
      throw walletErrors.unauthenticated(`missing or invalid bearer token: ${e.message.replace(/^[^:]*: /, "")}`);
    }
    throw e;
  }
}

export async function walletUser(api: WalletApi, ctx: HandlerContext): Promise<WalletUser> {
  return findWalletUser(api.wallet, await tokenUser(api, ctx));
}

export async function validatorAdmin(api: WalletApi, ctx: HandlerContext): Promise<string> {
  const userId = await tokenUser(api, ctx);
  if (!(await isValidatorAdmin(api.wallet, userId))) {
    throw walletErrors.forbidden(`user ${userId} is neither the validator operator (${api.wallet.validatorUser}) nor a participant admin`);
  }
  return userId;
}
