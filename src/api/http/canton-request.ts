/**
 * The request message of a Canton-dialect route from its parts — path variables, query and the
 * parsed body — through `requestJsonOf` and `fromCantonJson`. The POST form (gateway.ts) and the
 * WebSocket form (websocket-session.ts) of a stream decode with this one function, so they accept
 * and refuse the same requests.
 */
import type { DescMessage } from "@bufbuild/protobuf";
import { CantonJsonError, fromCantonJson, type DamlValueCodec } from "./canton-json.js";
import { HttpRefusal } from "./js-canton-error.js";
import { requestJsonOf } from "./request-json.js";
import type { Route } from "./route-table.js";

/** The decoded request message; an HttpRefusal (400) for JSON that does not fit the request's type. */
export function decodeCantonRequest(route: Route, params: readonly string[], query: URLSearchParams, bodyJson: unknown, daml: DamlValueCodec): unknown {
  try {
    const json = requestJsonOf(route, params, query, bodyJson);
    return fromCantonJson(route.method.input as DescMessage as never, json, daml);
  } catch (e) {
    if (e instanceof CantonJsonError) throw new HttpRefusal(400, `Invalid value for: body (${e.message})`);
    throw e;
  }
}
