/**
 * Untyped Daml-LF JSON printer for `com.daml.ledger.api.v2.Value` / `Record` (the encoding the JSON
 * Ledger API uses for `createArgument`, `choiceArgument`, `exerciseResult`, `contractKey`, `viewValue`),
 * plus the calendar helpers shared with the protobuf codec.
 *
 * Daml-LF JSON: record -> object keyed by field label; Int64 -> string; Numeric -> string (as is);
 * Text / Party / ContractId -> string; Bool -> boolean; Unit -> {}; Date -> "YYYY-MM-DD";
 * Time -> ISO-8601 UTC with `Z`; Optional -> null | value (nested: [] | [value]); List -> array;
 * TextMap -> object; GenMap -> array of [key, value]; Variant -> {"tag", "value"}; Enum -> "Ctor".
 */
import type { Record as ProtoRecord, Value } from "../../../gen/com/daml/ledger/api/v2/value_pb.js";

type JsonObject = { [key: string]: unknown };

/**
 * Own enumerable property, safe for keys such as `__proto__`: the one key a plain object's
 * assignment does not define (it sets the prototype). Any other key is assigned, which V8 does
 * several times faster than `defineProperty` (a runtime call per field of every record printed).
 */
export function setKey(obj: JsonObject, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

export function protoValueToDamlJson(value: Value): unknown {
  const s = value.sum;
  switch (s.case) {
    case "unit":
      return {};
    case "bool":
      return s.value;
    case "int64":
      return s.value.toString();
    case "date":
      return formatDate(s.value);
    case "timestamp":
      return formatMicros(s.value);
    case "numeric":
    case "party":
    case "text":
    case "contractId":
      return s.value;
    case "optional":
      return s.value.value === undefined ? null : someToJson(s.value.value);
    case "list":
      return s.value.elements.map(protoValueToDamlJson);
    case "textMap": {
      const out: JsonObject = {};
      for (const e of s.value.entries) setKey(out, e.key, e.value ? protoValueToDamlJson(e.value) : null);
      return out;
    }
    case "genMap":
      return s.value.entries.map((e) => [
        e.key ? protoValueToDamlJson(e.key) : null,
        e.value ? protoValueToDamlJson(e.value) : null,
      ]);
    case "record":
      return protoRecordToDamlJson(s.value);
    case "variant":
      return { tag: s.value.constructor$, value: s.value.value ? protoValueToDamlJson(s.value.value) : {} };
    case "enum":
      return s.value.constructor$;
    case undefined:
      return null;
  }
}

/** The payload of `Some(v)`: a nested optional prints as `[]` (None) or `[x]` (Some x); anything else as itself. */
function someToJson(v: Value): unknown {
  if (v.sum.case === "optional") {
    const inner = v.sum.value.value;
    return inner === undefined ? [] : [someToJson(inner)];
  }
  return protoValueToDamlJson(v);
}

/** Labelled record -> object keyed by label. A record without labels prints positionally (array). */
export function protoRecordToDamlJson(record: ProtoRecord): unknown {
  if (record.fields.length > 0 && record.fields.some((f) => f.label === "")) {
    return record.fields.map((f) => (f.value ? protoValueToDamlJson(f.value) : null));
  }
  const out: JsonObject = {};
  for (const f of record.fields) setKey(out, f.label, f.value ? protoValueToDamlJson(f.value) : null);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Calendar (proleptic Gregorian, UTC), exact for any year; no Date object involved.

/** Days since 1970-01-01 -> [year, month 1-12, day 1-31]. */
export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/** [year, month 1-12, day] -> days since 1970-01-01. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const pad = (n: number, w: number) => String(n).padStart(w, "0");

function formatYear(y: number): string {
  // java.time style: 4 digits inside 0000..9999, explicit sign outside.
  if (y >= 0 && y <= 9999) return pad(y, 4);
  return (y < 0 ? "-" : "+") + pad(Math.abs(y), 4);
}

/** Daml Date (days since epoch) -> "YYYY-MM-DD". */
export function formatDate(days: number): string {
  const [y, m, d] = civilFromDays(days);
  return `${formatYear(y)}-${pad(m, 2)}-${pad(d, 2)}`;
}

/**
 * Seconds + nanos since epoch -> ISO-8601 UTC, as java.time.Instant#toString prints it:
 * no fraction when zero, else 3, 6 or 9 digits.
 */
export function formatInstant(seconds: bigint, nanos: number): string {
  const days = seconds >= 0n ? seconds / 86400n : -((-seconds + 86399n) / 86400n);
  const secOfDay = Number(seconds - days * 86400n);
  const [y, m, d] = civilFromDays(Number(days));
  const hh = Math.floor(secOfDay / 3600);
  const mm = Math.floor((secOfDay % 3600) / 60);
  const ss = secOfDay % 60;
  let frac = "";
  if (nanos !== 0) {
    const digits = pad(nanos, 9);
    frac = "." + (nanos % 1_000_000 === 0 ? digits.slice(0, 3) : nanos % 1000 === 0 ? digits.slice(0, 6) : digits);
  }
  return `${formatYear(y)}-${pad(m, 2)}-${pad(d, 2)}T${pad(hh, 2)}:${pad(mm, 2)}:${pad(ss, 2)}${frac}Z`;
}

/** Daml Time (microseconds since epoch) -> ISO-8601 UTC string. */
export function formatMicros(micros: bigint): string {
  const secs = micros >= 0n ? micros / 1_000_000n : -((-micros + 999_999n) / 1_000_000n);
  return formatInstant(secs, Number(micros - secs * 1_000_000n) * 1000);
}

const INSTANT_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** ISO-8601 / RFC 3339 timestamp (`Z` or a numeric offset) -> seconds + nanos since epoch; a problem string on error. */
export function parseInstant(s: string): { seconds: bigint; nanos: number } | string {
  const m = INSTANT_RE.exec(s);
  if (!m) return `expected an ISO-8601 timestamp like "2025-01-01T00:00:00Z", got ${JSON.stringify(s)}`;
  const [year, month, day, hh, mi, ss] = m.slice(1, 7).map(Number);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hh > 23 || mi > 59 || ss > 59) {
    return `invalid timestamp ${JSON.stringify(s)}`;
  }
  let offset = 0;
  if (m[8] !== "Z") {
    const sign = m[8][0] === "-" ? -1 : 1;
    const oh = Number(m[8].slice(1, 3));
    const om = Number(m[8].slice(4, 6));
    if (oh > 18 || om > 59) return `invalid timestamp offset in ${JSON.stringify(s)}`;
    offset = sign * (oh * 3600 + om * 60);
  }
  const seconds = BigInt(daysFromCivil(year, month, day)) * 86400n + BigInt(hh * 3600 + mi * 60 + ss - offset);
  const nanos = m[7] ? Number(m[7].padEnd(9, "0")) : 0;
  return { seconds, nanos };
}
