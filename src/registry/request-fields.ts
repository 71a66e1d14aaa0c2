/** Checks of the registry's JSON request bodies; a wrong shape is a 400 with the field named. */
import { badRequest } from "./registry-error.js";

export type JsonObject = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

export function requestObject(body: unknown): JsonObject {
  if (body === undefined || body === null) return {};
  if (!isObject(body)) throw badRequest("The request body must be a JSON object.");
  return body;
}

export function excludeDebugFieldsOf(body: JsonObject): boolean {
  const v = body.excludeDebugFields;
  if (v === undefined || v === null) return false;
  if (typeof v !== "boolean") throw badRequest("Field `excludeDebugFields` must be a boolean.");
  return v;
}
