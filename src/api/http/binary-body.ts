/**
 * Routes whose annotation puts raw bytes on the wire instead of JSON: a request `body` naming a
 * `bytes` field (a DAR upload: `POST /v2/packages` with application/octet-stream) and a
 * `response_body` naming one (`GET /v2/packages/{package-id}` answers with the archive payload).
 * Canton's JSON API does both; gRPC carries the same fields in the messages.
 */
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import { ScalarType } from "@bufbuild/protobuf";
import type { IncomingMessage, ServerResponse } from "node:http";
import { JsonBodyError } from "./json-body.js";
import { readBodyBytes } from "./http-io.js";
import type { Route } from "./route-table.js";

/** Response fields Canton sends as headers next to a raw body, by response message. */
const RESPONSE_HEADERS: Readonly<Record<string, readonly (readonly [header: string, field: string])[]>> = {
  "com.daml.ledger.api.v2.GetPackageResponse": [["Canton-Package-Hash", "hash"]],
};

function bytesField(message: DescMessage, name: string): DescField | undefined {
  const f = message.fields.find((x) => x.name === name);
  return f && f.fieldKind === "scalar" && f.scalar === ScalarType.BYTES ? f : undefined;
}

/** The request field a raw body fills, when the route takes one. */
export function binaryRequestField(route: Route): DescField | undefined {
  return route.body === "" || route.body === "*" ? undefined : bytesField(route.method.input, route.body);
}

/** Media types a raw body may be declared as: octet-stream, or none (curl --data-binary sends form). */
function checkBinaryContentType(req: IncomingMessage): void {
  const declared = req.headers["content-type"];
  if (declared === undefined || declared.trim() === "") return;
  const media = declared.split(";")[0].trim().toLowerCase();
  if (media === "application/octet-stream" || media === "application/x-www-form-urlencoded") return;
  throw new JsonBodyError(415, `Unsupported Content-Type ${JSON.stringify(declared)}: the body must be application/octet-stream`);
}

/** The raw body, within `limit` (BodyTooLarge past it); 415 for a body declared as something else. */
export async function readBinaryBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  checkBinaryContentType(req);
  return new Uint8Array(await readBodyBytes(req, limit));
}

/** Whether the route answers with a raw `bytes` field rather than JSON. */
export function hasBinaryResponse(route: Route): boolean {
  return route.responseBody !== "" && bytesField(route.method.output, route.responseBody) !== undefined;
}

/** Sends the response's raw field as application/octet-stream, with Canton's headers for that response. */
export function sendBinaryResponse(res: ServerResponse, route: Route, result: Record<string, unknown>): void {
  const output = route.method.output;
  const field = bytesField(output, route.responseBody)!;
  const body = (result[field.localName] as Uint8Array | undefined) ?? new Uint8Array(0);
  const headers: Record<string, string | number> = { "content-type": "application/octet-stream", "content-length": body.length };
  for (const [header, name] of RESPONSE_HEADERS[output.typeName] ?? []) {
    const f = output.fields.find((x) => x.name === name);
    const value = f && result[f.localName];
    if (typeof value === "string" && value !== "") headers[header] = value;
  }
  res.writeHead(200, headers);
  res.end(body);
}
