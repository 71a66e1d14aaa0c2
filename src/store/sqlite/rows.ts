/** Rows whose `record` column holds an encoded record (see ../codec.ts). */
import type Database from "better-sqlite3";
import { decodeRecord } from "../codec.js";

export type Statement = Database.Statement<unknown[], unknown>;

/** The record of the first row, decoded; undefined when there is none. */
export function oneRecord<T>(stmt: Statement, ...args: unknown[]): T | undefined {
  const row = stmt.get(...args) as { record: string } | undefined;
  return row ? decodeRecord<T>(row.record) : undefined;
}

/** The record of the first row, decoded, with the length of its text; undefined when there is none. */
export function oneRecordSized<T>(stmt: Statement, ...args: unknown[]): { readonly record: T; readonly bytes: number } | undefined {
  const row = stmt.get(...args) as { record: string } | undefined;
  return row ? { record: decodeRecord<T>(row.record), bytes: row.record.length } : undefined;
}

/** The records of every row, decoded, in the statement's order. */
export function allRecords<T>(stmt: Statement, ...args: unknown[]): T[] {
  return (stmt.all(...args) as { record: string }[]).map((r) => decodeRecord<T>(r.record));
}

/** The records of the rows, decoded, up to and including the first that brings their text to `maxBytes`. */
export function recordsWithin<T>(stmt: Statement, maxBytes: number, ...args: unknown[]): T[] {
  const out: T[] = [];
  let bytes = 0;
  for (const r of stmt.iterate(...args) as IterableIterator<{ record: string }>) {
    out.push(decodeRecord<T>(r.record));
    bytes += r.record.length;
    if (bytes >= maxBytes) break;
  }
  return out;
}
