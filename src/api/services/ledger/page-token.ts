/**
 * Page tokens of the list endpoints (users, parties): opaque to clients, as in Canton — the last
 * id of the page, base64url-encoded. A token that does not decode to one is INVALID_ARGUMENT
 * rather than being read as a position (a garbage token used to list from wherever it sorted).
 */
import { errors } from "../../../ledger/errors.js";

export function encodePageToken(lastId: string): string {
  return Buffer.from(lastId, "utf8").toString("base64url");
}

/** The id a page starts after; "" for the first page. */
export function decodePageToken(token: string): string {
  if (token === "") return "";
  const id = /^[A-Za-z0-9_-]+$/.test(token) ? Buffer.from(token, "base64url").toString("utf8") : "";
  if (id === "" || encodePageToken(id) !== token) throw errors.invalidRequest("Invalid page token");
  return id;
}
