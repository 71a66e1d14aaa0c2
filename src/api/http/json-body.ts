/**
 * What a JSON request body must be before it is decoded: sent as JSON (by its Content-Type) and
 * parsed strictly — valid JSON with no key twice in one object.
 */
import type { IncomingMessage } from "node:http";
import { duplicateKeyOf } from "./duplicate-keys.js";

/** A body refused before decoding; `status` is 400 (not JSON) or 415 (declared as something else). */
export class JsonBodyError extends Error {
  constructor(
    readonly status: 400 | 415,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Media types a JSON body may be declared as: JSON (with parameters, or a `+json` type), none at
 * all, and `application/x-www-form-urlencoded` — what `curl -d` sends by default, as the README's
 * examples do. Anything else (`text/plain`, `multipart/form-data`, ...) is 415, as in Canton and Splice.
 */
export function checkJsonContentType(req: IncomingMessage): void {
  const declared = req.headers["content-type"];
  if (declared === undefined || declared.trim() === "") return;
  const media = declared.split(";")[0].trim().toLowerCase();
  if (media === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(media) || media === "application/x-www-form-urlencoded") return;
  throw new JsonBodyError(415, `Unsupported Content-Type ${JSON.stringify(declared)}: the body must be application/json`);
}

/** The parsed body; a body that is not JSON or repeats a key is a 400. */
export function parseJsonBody(text: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new JsonBodyError(400, `the body is not JSON (${(e as Error).message})`);
  }
  const duplicate = typeof json === "object" && json !== null ? duplicateKeyOf(text) : undefined;
  if (duplicate !== undefined) throw new JsonBodyError(400, `the body has the key ${JSON.stringify(duplicate)} more than once`);
  return json;
}
