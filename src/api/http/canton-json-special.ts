/**
 * Message types with their own Canton JSON form, keyed by full name: Timestamp (ISO-8601 string),
 * Duration (`{seconds, nanos, unknownFields}`), Empty (`{}`), Any (ProtoAny), FieldMask
 * (`{paths, unknownFields}`), Identifier (`"pkg:Module:Entity"`) and PreparedTransaction (base64
 * of its protobuf bytes).
 */
import { create, fromBinary, ScalarType, type Message } from "@bufbuild/protobuf";
import { AnySchema, DurationSchema, EmptySchema, FieldMaskSchema, TimestampSchema, type Any, type Duration, type FieldMask, type Timestamp } from "@bufbuild/protobuf/wkt";
import { type PreparedTransaction, PreparedTransactionSchema } from "../../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { type Identifier, IdentifierSchema } from "../../../gen/com/daml/ledger/api/v2/value_pb.js";
import { PREPARED_CACHE_LIMITS } from "../../ledger/prepared-interpretations.js";
import { formatInstant, parseInstant } from "../convert/canton-json-daml.js";
import { preparedTransactionBase64 } from "../convert/prepared-transaction-binary.js";
import { expectObject, fail } from "./canton-json-error.js";
import { decodeScalar } from "./canton-json-scalars.js";
import { TYPE_ANY, TYPE_DURATION, TYPE_EMPTY, TYPE_FIELD_MASK, TYPE_IDENTIFIER, TYPE_TIMESTAMP } from "./canton-json-tables.js";
import { expected, joinKey } from "./json-shape.js";
import { PreparedTexts } from "./prepared-texts.js";

export interface SpecialCodec {
  encode(message: Message): unknown;
  /** `json` is never null/undefined here. */
  decode(json: unknown, path: string): Message;
}

/** Canton prints scalapb's `unknownFields` of Duration and Any (ProtoAny.unknownFields is required). */
const unknownFieldsJson = () => ({ fields: {} });

/** Visits the non-null keys of a JSON object whose keys must all be `known` (in the object's key order). */
function forEachKnownKey(json: unknown, path: string, known: readonly string[], visit: (key: string, v: unknown, p: string) => void): void {
  const o = expectObject(json, path);
  for (const key of Object.keys(o)) {
    const p = joinKey(path, key);
    if (!known.includes(key)) fail(p, "unknown field");
    if (o[key] !== null) visit(key, o[key], p);
  }
}

/** What the executes of this process's prepares carry back (see PreparedTexts). */
const recentlyPrepared = new PreparedTexts(PREPARED_CACHE_LIMITS);

export const SPECIAL_MESSAGES: { readonly [typeName: string]: SpecialCodec } = {
  // JsTransaction.effectiveAt etc.: `type: string` (java.time.Instant#toString).
  [TYPE_TIMESTAMP]: {
    encode: (m) => formatInstant((m as Timestamp).seconds, (m as Timestamp).nanos),
    decode(json, path) {
      if (typeof json !== "string") fail(path, expected("an ISO-8601 timestamp string", json));
      const r = parseInstant(json);
      if (typeof r === "string") fail(path, r);
      return create(TimestampSchema, r);
    },
  },
  // OpenAPI Duration: {seconds: int64 REQ, nanos: int32 REQ, unknownFields: UnknownFieldSet opt};
  // a 3.4.12 participant prints `"unknownFields": {"fields": {}}` (e.g. GET /v2/version).
  [TYPE_DURATION]: {
    encode: (m) => ({ seconds: Number((m as Duration).seconds), nanos: (m as Duration).nanos, unknownFields: unknownFieldsJson() }),
    decode(json, path) {
      const d = create(DurationSchema);
      forEachKnownKey(json, path, ["seconds", "nanos", "unknownFields"], (key, v, p) => {
        if (key === "seconds") d.seconds = decodeScalar(ScalarType.INT64, false, v, p) as bigint;
        else if (key === "nanos") d.nanos = decodeScalar(ScalarType.INT32, false, v, p) as number;
        else expectObject(v, p); // unknownFields: accepted, contents ignored
      });
      if (d.nanos < -999_999_999 || d.nanos > 999_999_999) fail(joinKey(path, "nanos"), "must be within ±999999999");
      if ((d.seconds > 0n && d.nanos < 0) || (d.seconds < 0n && d.nanos > 0)) fail(joinKey(path, "nanos"), "must have the sign of seconds");
      return d;
    },
  },
  [TYPE_EMPTY]: {
    encode: () => ({}),
    decode(json, path) {
      forEachKnownKey(json, path, [], () => undefined);
      return create(EmptySchema);
    },
  },
  // OpenAPI ProtoAny: {typeUrl REQ, value REQ (base64), unknownFields REQ, valueDecoded opt}.
  [TYPE_ANY]: {
    encode: (m) => ({ typeUrl: (m as Any).typeUrl, value: Buffer.from((m as Any).value).toString("base64"), unknownFields: unknownFieldsJson() }),
    decode(json, path) {
      const a = create(AnySchema);
      forEachKnownKey(json, path, ["typeUrl", "value", "unknownFields", "valueDecoded"], (key, v, p) => {
        if (key === "typeUrl") a.typeUrl = decodeScalar(ScalarType.STRING, false, v, p) as string;
        else if (key === "value") a.value = decodeScalar(ScalarType.BYTES, false, v, p) as Uint8Array;
        else if (key === "unknownFields") expectObject(v, p);
        else decodeScalar(ScalarType.STRING, false, v, p); // valueDecoded: informational only
      });
      return a;
    },
  },
  // OpenAPI FieldMask: {paths: [string], unknownFields REQ} (not protobuf's comma-joined string).
  [TYPE_FIELD_MASK]: {
    encode: (m) => ({ paths: [...(m as FieldMask).paths], unknownFields: unknownFieldsJson() }),
    decode(json, path) {
      const mask = create(FieldMaskSchema);
      forEachKnownKey(json, path, ["paths", "unknownFields"], (key, v, p) => {
        if (key === "unknownFields") return void expectObject(v, p);
        if (!Array.isArray(v)) fail(p, expected("an array of field paths", v));
        mask.paths = v.map((x, i) => decodeScalar(ScalarType.STRING, false, x, `${p}[${i}]`) as string);
      });
      return mask;
    },
  },
  // templateId / interfaceId / implementedInterfaces: `type: string` ("<package-id>:<Module>:<Entity>";
  // input also "#<package-name>:<Module>:<Entity>", kept verbatim in package_id).
  [TYPE_IDENTIFIER]: {
    encode: (m) => `${(m as Identifier).packageId}:${(m as Identifier).moduleName}:${(m as Identifier).entityName}`,
    decode(json, path) {
      if (typeof json !== "string") fail(path, expected('an identifier string "<package>:<Module>:<Entity>"', json));
      const parts = json.split(":");
      if (parts.length !== 3 || parts.some((x) => x === "") || parts[0] === "#") {
        fail(path, `expected "<package-id>:<Module>:<Entity>" or "#<package-name>:<Module>:<Entity>", got ${JSON.stringify(json)}`);
      }
      return create(IdentifierSchema, { packageId: parts[0], moduleName: parts[1], entityName: parts[2] });
    },
  },
  // JsPrepareSubmissionResponse / JsExecuteSubmission*Request.preparedTransaction: `type: string`,
  // the protobuf bytes in base64, so a client hashes and returns exactly what the gRPC API carries.
  [PreparedTransactionSchema.typeName]: {
    encode(m) {
      const base64 = preparedTransactionBase64(m as PreparedTransaction);
      recentlyPrepared.remember(base64, m as PreparedTransaction);
      return base64;
    },
    decode(json, path) {
      const known = typeof json === "string" ? recentlyPrepared.take(json) : undefined;
      if (known) return known;
      const bytes = decodeScalar(ScalarType.BYTES, false, json, path) as Uint8Array;
      try {
        return fromBinary(PreparedTransactionSchema, bytes);
      } catch (e) {
        return fail(path, `not a serialized PreparedTransaction (${(e as Error).message})`);
      }
    },
  },
};
