/**
 * The target of a request: its path as sent, and its query. Node hands over the raw request
 * line's target; `new URL` throws on some that HTTP parsers let through (`//`, `/\`,
 * `//host:99999/...`), and a throw in a request or upgrade listener ends the process. Such a
 * target is the client's error: 400.
 *
 * The path is not the URL parser's: WHATWG URLs resolve dot segments, `%2e%2e` included, so
 * `/v2/users/%2e%2e` would become `/v2` and a user id `..` (valid in Canton) could not be named.
 * Canton's router takes segments as sent; so do the routes here (they decode each parameter).
 */
import type { ServerResponse } from "node:http";
import { send } from "./http-io.js";
import { HttpRefusal } from "./js-canton-error.js";
import { randomHex } from "../../ledger/ids.js";

export interface RequestTarget {
  /** The path as sent, percent-encoding kept, dot segments not resolved. */
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
  /** The whole target as a URL (for call contexts and logs). */
  readonly href: string;
}

export function parseRequestUrl(target: string | undefined): RequestTarget | undefined {
  const text = target ?? "/";
  let url: URL;
  try {
    url = new URL(text, "http://localhost");
  } catch {
    return undefined;
  }
  // Origin form (`/path?query`), the only one clients send to a server that is not a proxy; for
  // the absolute form the parsed path is the best there is.
  const end = text.search(/[?#]/);
  const pathname = text.startsWith("/") ? (end === -1 ? text : text.slice(0, end)) : url.pathname;
  return { pathname, searchParams: url.searchParams, href: url.href };
}

export const UNPARSABLE_TARGET = new HttpRefusal(400, "Invalid value for: request target (not a URL path)");

export function refuseUnparsableTarget(res: ServerResponse): void {
  const { status, body } = UNPARSABLE_TARGET.toJsCantonError(randomHex(8));
  send(res, status, body);
}
