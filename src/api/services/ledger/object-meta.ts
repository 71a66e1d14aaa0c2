/**
 * A user's or a party's `ObjectMeta`, as Canton checks and changes it (ResourceAnnotationValidator,
 * FieldValidator): annotation keys in Kubernetes' syntax (an optional DNS-subdomain prefix and a
 * `/`, then a name of at most 63 characters), at most 256 KB of them in a request, values
 * non-empty except in an update (where empty removes the key); a resource version that is a
 * number, bumped by each update.
 */
import { errors } from "../../../ledger/errors.js";

/** At most this many bytes of annotations (keys and values, UTF-8), as Canton allows a user or a party. */
export const MAX_ANNOTATIONS_BYTES = 256 * 1024;

const KEY_SEGMENT = /^([a-zA-Z0-9]+[a-zA-Z0-9.\-_]*)?[a-zA-Z0-9]+$/;
const NAME = "([a-zA-Z0-9]+[a-zA-Z0-9-]*)?[a-zA-Z0-9]+";
const DNS_SUBDOMAIN = new RegExp(`^(${NAME}[.])*${NAME}$`);

const invalid = errors.invalidRequest;

/**
 * A request's annotations, checked as Canton checks them before anything is read: the size of
 * those with a value, each key's syntax, and (unless `allowEmptyValues`, as in an update) values.
 * `field` names them in the size error.
 */
export function checkAnnotations(annotations: Readonly<Record<string, string>>, allowEmptyValues: boolean, field: string): void {
  const valued = Object.fromEntries(Object.entries(annotations).filter(([, v]) => v !== ""));
  if (annotationsBytes(valued) > MAX_ANNOTATIONS_BYTES) throw invalid(`annotations from field '${field}' are larger than the limit of 256kb`);
  for (const key of Object.keys(annotations)) checkKey(key);
  if (allowEmptyValues) return;
  for (const [key, value] of Object.entries(annotations)) if (value === "") throw invalid(`The value of an annotation is empty for key: '${shorten(key)}'`);
}

function checkKey(key: string): void {
  const segments = key.split("/");
  if (segments.length > 2) throw invalid(`Key '${shorten(key)}' contains more than one forward slash ('/') character`);
  const [prefix, name] = segments.length === 2 ? segments : [undefined, segments[0]];
  if (prefix !== undefined) {
    if (prefix.length > 253) throw invalid(`Key prefix segment '${shorten(prefix)}' exceeds maximum length of 253 characters`);
    if (!DNS_SUBDOMAIN.test(prefix)) throw invalid(`Key prefix segment '${shorten(prefix)}' has invalid syntax`);
  }
  if (name.length > 63) throw invalid(`Key name segment '${shorten(name)}' exceeds maximum length of 63 characters`);
  if (!KEY_SEGMENT.test(name)) throw invalid(`Key name segment '${shorten(name)}' has invalid syntax`);
}

/** `held` with `update` merged in: an empty value removes its key. */
export function mergedAnnotations(held: Readonly<Record<string, string>>, update: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = { ...held };
  for (const [k, v] of Object.entries(update)) {
    if (v === "") delete out[k];
    else out[k] = v;
  }
  return out;
}

export const annotationsBytes = (a: Readonly<Record<string, string>>): number =>
  Object.entries(a).reduce((n, [k, v]) => n + Buffer.byteLength(k, "utf8") + Buffer.byteLength(v, "utf8"), 0);

/** A resource version a request names ("" for none), checked to be a number as Canton parses it. */
export function checkResourceVersion(version: string, field: string): void {
  if (version !== "" && !isLong(version)) {
    throw errors.invalidField(field, `Invalid resource version number: '${shorten(version)}'`);
  }
}

/** A 64-bit signed integer in decimal, as Scala's `toLong` reads one. */
const isLong = (s: string): boolean => /^-?\d{1,19}$/.test(s) && BigInt(s) >= -(2n ** 63n) && BigInt(s) < 2n ** 63n;

/** The version after `version` (a counter; anything else starts it again at 1). */
export const nextResourceVersion = (version: string): string => String(/^\d{1,30}$/.test(version) ? BigInt(version) + 1n : 1n);

/** Canton's way of quoting a long value in an error: its first 50 characters and "...". */
export const shorten = (s: string): string => (s.length > 53 ? `${s.slice(0, 50)}...` : s);
