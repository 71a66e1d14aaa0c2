/**
 * Builds Connect method implementations for the `/v0` services from handlers that receive the
 * authenticated caller: the auth policy is chosen where a method is wired, so a handler cannot
 * forget it. Errors leave as ConnectErrors with the WalletError as cause.
 */
import type { DescMessage, DescService, MessageInitShape, MessageShape } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { WalletUser } from "../../../wallet/index.js";
import { tokenUser, validatorAdmin, walletUser } from "./wallet-auth.js";
import type { WalletApi } from "./wallet-api.js";
import { toWalletConnectError } from "./wallet-connect-error.js";

/** A handler of method `K` of service `S`, given the caller `C` the policy authenticated. */
export type Handler<S extends DescService, K extends keyof S["method"], C> = (
  req: MessageShape<S["method"][K]["input"]>,
  caller: C,
  api: WalletApi,
) => Promise<MessageInitShape<S["method"][K]["output"]>>;

export type Policy<C> = (api: WalletApi, ctx: HandlerContext) => Promise<C>;

/** Wallet endpoints: the token's user must be onboarded; the handler gets its party. */
export const asWalletUser: Policy<WalletUser> = walletUser;
/** Admin endpoints: the validator operator's user or a participant admin. */
export const asValidatorAdmin: Policy<string> = validatorAdmin;
/** Any valid token; the handler gets its user id. */
export const asTokenUser: Policy<string> = tokenUser;
/** No token needed. */
export const asAnyone: Policy<undefined> = async () => undefined;

/** The implementations of methods `K` of service `S`, as Connect (and the native gRPC path) call them. */
export type Wired<S extends DescService, K extends keyof S["method"]> = { readonly [M in K]: ServiceImpl<S>[M] };

type AnyHandler<C> = (req: never, caller: C, api: WalletApi) => Promise<MessageInitShape<DescMessage>>;

/**
 * A wired method's policy alone: the JSON gateway runs it before it reads the body, so a request
 * is authenticated, then authorized, then validated (as Splice does). Only a refusal counts: the
 * method runs its policy again once the body has arrived, which may be minutes later, after the
 * caller was offboarded or lost its rights.
 */
export type Authorize = (ctx: HandlerContext) => Promise<void>;

function endpoint<C>(api: WalletApi, policy: Policy<C>, handler: AnyHandler<C>) {
  const unary = async (req: never, ctx: HandlerContext) => {
    try {
      return await handler(req, await policy(api, ctx), api);
    } catch (e) {
      throw toWalletConnectError(e, api.log);
    }
  };
  const authorize: Authorize = async (ctx) => {
    try {
      await policy(api, ctx);
    } catch (e) {
      throw toWalletConnectError(e, api.log);
    }
  };
  return Object.assign(unary, { authorize });
}

/**
 * Wires handlers of service `S` under one policy: `wire<S>(api)(policy, { method: handler, ... })`.
 * Each handler is typed by its method, and a service built from these tables is a
 * `ServiceImpl<S>` only when every method is wired: a method added to the proto without a
 * handler fails to compile.
 */
export function wire<S extends DescService>(api: WalletApi) {
  return <C, K extends keyof S["method"] & string>(policy: Policy<C>, handlers: { readonly [M in K]: Handler<S, M, C> }): Wired<S, K> => {
    const wired = Object.entries(handlers).map(([name, h]) => [name, endpoint(api, policy, h as AnyHandler<C>)]);
    // Handler<S, M, C> and ServiceImpl<S>[M] take and return the same messages; the table keeps them paired per method.
    return Object.fromEntries(wired) as Wired<S, K>;
  };
}
