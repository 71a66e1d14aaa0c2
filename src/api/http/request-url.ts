/**
 * The URL of a request target. Node hands over the raw request line's target; `new URL` throws on
 * some that HTTP parsers let through (`//`, `/\`, `//host:99999/...`), and a throw in a request
 * or upgrade listener ends the process. Such a target is the client's error: 400.
 */
import type { ServerResponse } from "node:http";
import { send } from "./http-io.js";
import { HttpRefusal } from "./js-canton-error.js";
import { randomHex } from "../../ledger/ids.js";

export function parseRequestUrl(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? "/", "http://localhost");
  } catch {
    return undefined;
  }
}

export const UNPARSABLE_TARGET = new HttpRefusal(400, "Invalid value for: request target (not a URL path)");

export function refuseUnparsableTarget(res: ServerResponse): void {
  const { status, body } = UNPARSABLE_TARGET.toJsCantonError(randomHex(8));
  send(res, status, body);
}
