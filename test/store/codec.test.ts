/** The JSON persistence of records: bigints survive, everything else is plain JSON. */
import { describe, expect, it } from "vitest";
import { plainJson } from "../../src/ledger/plain-json.js";
import { decodeRecord, encodeRecord, encodeRecordApart, withJson } from "../../src/store/codec.js";

/** The record as the writer stores it: its parts joined. */
function encodeRecordReusing<T extends object>(record: T, key: keyof T & string): string {
  const { rest, part } = encodeRecordApart(record, key);
  return part === undefined ? rest : withJson(rest, key, part);
}

describe("record codec", () => {
  it("writes bigints anywhere as {$n} and leaves the input untouched", () => {
    const shared = { at: 7n };
    const value = { offset: 12345678901234567890n, nodes: [{ kind: "create", payload: { n: -3n, s: "x", a: [1, 2n, null] } }, shared, shared], u: undefined, d: new Date(0) };
    const text = encodeRecord(value);
    expect(text).toBe(
      '{"offset":{"$n":"12345678901234567890"},"nodes":[{"kind":"create","payload":{"n":{"$n":"-3"},"s":"x","a":[1,{"$n":"2"},null]}},{"at":{"$n":"7"}},{"at":{"$n":"7"}}],"d":"1970-01-01T00:00:00.000Z"}',
    );
    expect(value.offset).toBe(12345678901234567890n);
    expect(shared.at).toBe(7n);
    expect(decodeRecord(text)).toEqual({ ...value, u: undefined, d: "1970-01-01T00:00:00.000Z" });
  });

  it("returns records without bigints as JSON.stringify does", () => {
    const value = { a: "1", b: [true, { c: null }], e: [] };
    expect(encodeRecord(value)).toBe(JSON.stringify(value));
  });

  it("writes top-level bigints (offsets, times) the same way as deep ones, and a record with both", () => {
    const top = { offset: 5n, recordTime: -1n, nodes: [{ payload: { s: "x" } }] };
    expect(encodeRecord(top)).toBe('{"offset":{"$n":"5"},"recordTime":{"$n":"-1"},"nodes":[{"payload":{"s":"x"}}]}');
    expect(top.offset).toBe(5n);
    const both = { offset: 5n, dedup: { kind: "offset", offset: 3n } };
    expect(encodeRecord(both)).toBe('{"offset":{"$n":"5"},"dedup":{"kind":"offset","offset":{"$n":"3"}}}');
    expect(decodeRecord(encodeRecord(both))).toEqual(both);
    expect(both.dedup.offset).toBe(3n);
    // Deeper than the two levels swapped before stringify: the full walk, same text.
    const deep = { at: { one: { two: 4n } }, list: [{ n: 6n }] };
    expect(encodeRecord(deep)).toBe('{"at":{"one":{"two":{"$n":"4"}}},"list":[{"n":{"$n":"6"}}]}');
    expect(deep.at.one.two).toBe(4n);
  });

  it("reuses the plain JSON of a value already serialized (a transaction's nodes, priced then stored)", () => {
    const nodes = [{ kind: "create", payload: { s: "x" } }];
    const tx = { offset: 9n, updateId: "u", nodes };
    expect(plainJson(nodes)).toBe(JSON.stringify(nodes));
    expect(plainJson(nodes)).toBe(plainJson(nodes));
    const text = encodeRecordReusing(tx, "nodes");
    expect(text).toBe('{"offset":{"$n":"9"},"updateId":"u","nodes":[{"kind":"create","payload":{"s":"x"}}]}');
    expect(decodeRecord(text)).toEqual(tx);
    expect(encodeRecordReusing({ nodes }, "nodes")).toBe(JSON.stringify({ nodes }));
    // Values holding a bigint are not plain: the record is encoded as encodeRecord does.
    const deep = { offset: 1n, nodes: [{ payload: { n: 2n } }] };
    expect(plainJson(deep.nodes)).toBeUndefined();
    expect(encodeRecordReusing(deep, "nodes")).toBe(encodeRecord(deep));
  });

  it("encodes a record in two parts that join into the same document (the writer thread joins them)", () => {
    const nodes = [{ kind: "create", payload: { s: "x" } }];
    const tx = { updateId: "u", recordTime: 5n, nodes };
    plainJson(nodes);
    const { rest, part } = encodeRecordApart(tx, "nodes");
    expect(rest).toBe('{"updateId":"u","recordTime":{"$n":"5"}}');
    expect(part).toBe(JSON.stringify(nodes));
    expect(withJson(rest, "nodes", part!)).toBe(encodeRecord(tx));
    expect(withJson("{}", "nodes", "[]")).toBe('{"nodes":[]}');
    // No plain text for the value (never priced, or holding a bigint): the whole record in one part.
    const deep = { updateId: "u", nodes: [{ n: 2n }] };
    expect(encodeRecordApart(deep, "nodes")).toEqual({ rest: encodeRecord(deep), part: undefined });
  });

  it("takes the plain JSON it reuses: the text does not outlive the write (the value lives on until its answer)", () => {
    const nodes: { kind: string; payload: { s: string } }[] = [{ kind: "create", payload: { s: "x" } }];
    expect(plainJson(nodes)).toBe('[{"kind":"create","payload":{"s":"x"}}]');
    // Values are never changed once priced; one changed here shows whether the text was kept.
    nodes[0].payload.s = "y";
    expect(plainJson(nodes)).toContain('"s":"x"'); // kept for the store
    expect(encodeRecordReusing({ nodes }, "nodes")).toContain('"s":"x"'); // taken
    expect(plainJson(nodes)).toContain('"s":"y"'); // forgotten, so computed again
  });
});
