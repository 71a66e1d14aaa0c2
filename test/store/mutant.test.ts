import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { describeStoreConformance } from "./conformance.js";
const files = new WeakMap<object, string>();
const P = SqliteStore.prototype as any;
const m = process.env.MUTANT;
if (m === "noconflict") P.findConflict = function () { return undefined; };
if (m === "nokey") { const f = P.findConflict; P.findConflict = function (r: any) { return f.call(this, { ...r, creates: [] }); }; }
if (m === "txoff") { const f = P.transactions; P.transactions = function (b: bigint, e: bigint, l: number) { return f.call(this, b > 0n ? b - 1n : b, e, l); }; }
if (m === "nodedup") { const f = P.findConflict; P.findConflict = function (r: any) { return f.call(this, { ...r, dedup: undefined }); }; }
if (m === "listenerEarly") { const f = P.onLedgerEnd; P.onLedgerEnd = function (l: any) { return f.call(this, (e: bigint) => l(e + 1n)); }; }
if (m === "closeDrop") { P.close = async function () { this.queue = []; this.closed = true; this.db.close(); }; }
if (m === "actOrder") { const f = P.activeContracts; P.activeContracts = async function (q: any) { return (await f.call(this, q)).reverse(); }; }
if (m === "grantAll") { const f = P.grantRights; P.grantRights = async function (id: string, r: any) { const x = await f.call(this, id, r); return x && r; }; }
describeStoreConformance("mutant", async () => { const f = join(mkdtempSync(join(tmpdir(), "mut-")), "l.sqlite"); const s = new SqliteStore({ file: f }); files.set(s, f); return s; }, async (c) => { const f = files.get(c)!; const s = new SqliteStore({ file: f }); files.set(s, f); return s; });
