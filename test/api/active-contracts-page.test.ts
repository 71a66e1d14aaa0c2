/**
 * The paginated ACS, `/v2/state/active-contracts-page` (Canton 3.5's JSON shape: maxPageSize,
 * pageToken, activeAtOffset, eventFormat; activeContracts, activeAtOffset, nextPageToken): pages
 * that add up to the streaming ACS at the same offset, opaque tokens refused when forged or reused
 * with another offset or format, and GET with a JSON body as Canton serves it.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ACCOUNT, createIou, IOU, startTestServer, type TestServer } from "../support/test-server.js";
import { PAGE_MAX_BYTES } from "../../src/api/services/ledger/active-contracts-page.js";
import { jsonSize } from "../../src/util/json-size.js";

let s: TestServer;
let alice: { party: string; user: string; token: string };
let bob: { party: string; user: string; token: string };
let snapshot: number;

const wildcard = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };
const formatFor = (party: string) => ({ filtersByParty: { [party]: wildcard } });
const page = (body: Record<string, unknown>, token = alice.token) => s.json("POST", "/v2/state/active-contracts-page", body, token);
const cidsOf = (entries: { contractEntry: { JsActiveContract: { createdEvent: { contractId: string } } } }[]) =>
  entries.map((e) => e.contractEntry.JsActiveContract.createdEvent.contractId);

/** `n` Ious of the user's party, amounts 1 to n, created by 16 concurrent callers. */
async function createIous(user: { party: string; token: string }, n: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < n) {
        const i = next++;
        const r = await s.json("POST", "/v2/commands/submit-and-wait", createIou(user.party, String(i + 1)).commands, user.token);
        expect(r.status, r.text).toBe(200);
      }
    }),
  );
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await s.partyUser("acp-alice");
  bob = await s.partyUser("acp-bob");
  for (let i = 1; i <= 5; i++) {
    const r = await s.json("POST", "/v2/commands/submit-and-wait", createIou(alice.party, String(i)).commands, alice.token);
    expect(r.status, r.text).toBe(200);
  }
  snapshot = (await s.json("GET", "/v2/state/ledger-end")).body.offset;
  // After the snapshot: not in any page at the snapshot's offset.
  await s.json("POST", "/v2/commands/submit-and-wait", createIou(alice.party, "99").commands, alice.token);
});
afterAll(() => s?.stop());

describe("active-contracts-page", () => {
  it("pages through the snapshot at an offset: the pages add up to the streaming ACS there", async () => {
    const stream = await s.json("POST", "/v2/state/active-contracts", { eventFormat: formatFor(alice.party), activeAtOffset: snapshot }, alice.token);
    const all = cidsOf(stream.body);
    expect(all).toHaveLength(5);
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const r = await page({ eventFormat: formatFor(alice.party), activeAtOffset: snapshot, maxPageSize: 2, ...(token ? { pageToken: token } : {}) });
      expect(r.status, r.text).toBe(200);
      expect(r.body.activeAtOffset).toBe(snapshot);
      expect(r.body.activeContracts.length).toBeLessThanOrEqual(2);
      seen.push(...cidsOf(r.body.activeContracts));
      token = r.body.nextPageToken;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual(all);
  });

  it("without activeAtOffset reads at the ledger end and says which offset that was; the token keeps it", async () => {
    const first = await page({ eventFormat: formatFor(alice.party), maxPageSize: 4 });
    const end = (await s.json("GET", "/v2/state/ledger-end")).body.offset;
    expect(first.body.activeAtOffset).toBe(end);
    expect(first.body.activeContracts).toHaveLength(4);
    const second = await page({ eventFormat: formatFor(alice.party), maxPageSize: 4, pageToken: first.body.nextPageToken });
    expect(second.status, second.text).toBe(200);
    expect(second.body.activeContracts).toHaveLength(2);
    expect(second.body.nextPageToken).toBeUndefined();
  });

  it("refuses a forged token, a token with another offset or format, and a missing eventFormat (400)", async () => {
    const first = await page({ eventFormat: formatFor(alice.party), activeAtOffset: snapshot, maxPageSize: 1 });
    const token = first.body.nextPageToken as string;
    const bad = [
      { eventFormat: formatFor(alice.party), activeAtOffset: snapshot, pageToken: "not-a-token!" },
      { eventFormat: formatFor(alice.party), activeAtOffset: snapshot, pageToken: Buffer.from("1:abc:0").toString("base64url") },
      { eventFormat: formatFor(alice.party), activeAtOffset: snapshot - 1, pageToken: token },
      { eventFormat: { filtersByParty: { [alice.party]: { cumulative: [] } } }, activeAtOffset: snapshot, pageToken: token },
      { activeAtOffset: snapshot },
      { eventFormat: formatFor(alice.party), maxPageSize: -1 },
    ];
    for (const body of bad) {
      const r = await page(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("answers the empty set at offset 0, OFFSET_AFTER_LEDGER_END past the end, 403 for another party's format", async () => {
    const zero = await page({ eventFormat: formatFor(alice.party), activeAtOffset: 0 });
    expect(zero.body).toMatchObject({ activeContracts: [], activeAtOffset: 0 });
    expect(zero.body.nextPageToken).toBeUndefined();
    const after = await page({ eventFormat: formatFor(alice.party), activeAtOffset: 1_000_000 });
    expect(after.body).toMatchObject({ code: "OFFSET_AFTER_LEDGER_END" });
    expect((await page({ eventFormat: formatFor(alice.party) }, bob.token)).status).toBe(403);
  });

  it("is served as Canton serves it: GET with a JSON body", async () => {
    const body = JSON.stringify({ eventFormat: formatFor(alice.party), activeAtOffset: snapshot, maxPageSize: 10 });
    const url = new URL(`${s.http}/v2/state/active-contracts-page`);
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(url, { method: "GET", headers: { authorization: `Bearer ${alice.token}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on("error", reject);
      req.end(body);
    });
    expect(answer.status, answer.text).toBe(200);
    expect(JSON.parse(answer.text).activeContracts).toHaveLength(5);
  });

  it("reads each page from where the last one ended, not the snapshot before it", async () => {
    // Every page used to read and encode the whole snapshot up to its position: 100 pages of a
    // 100,000-contract ACS read 5 million contracts.
    const dave = await s.partyUser("acp-dave");
    for (let i = 0; i < 30; i++) {
      const r = await s.json("POST", "/v2/commands/submit-and-wait", createIou(dave.party, String(i + 1)).commands, dave.token);
      expect(r.status, r.text).toBe(200);
    }
    const paged = vi.spyOn(s.server.store, "activeContractsPage");
    const whole = vi.spyOn(s.server.store, "activeContracts");
    try {
      const seen: string[] = [];
      let pageToken: string | undefined;
      let pages = 0;
      do {
        const r = await page({ eventFormat: formatFor(dave.party), maxPageSize: 5, ...(pageToken ? { pageToken } : {}) }, dave.token);
        expect(r.status, r.text).toBe(200);
        seen.push(...cidsOf(r.body.activeContracts));
        pageToken = r.body.nextPageToken;
        pages++;
      } while (pageToken);
      expect(new Set(seen).size).toBe(30);
      expect(pages).toBe(6);
      const daves = paged.mock.results.filter((_r, i) => paged.mock.calls[i]![0].parties?.includes(dave.party));
      const read = (await Promise.all(daves.map((r) => r.value as Promise<unknown[]>))).reduce((n, rows) => n + rows.length, 0);
      expect(read).toBeLessThanOrEqual(30 + pages);
      expect(whole.mock.calls.filter(([q]) => q.parties?.includes(dave.party))).toEqual([]);
    } finally {
      paged.mockRestore();
      whole.mockRestore();
    }
  });

  it("pages a template filter that leaves most contracts out as the stream shows it", async () => {
    const erin = await s.partyUser("acp-erin");
    for (let i = 0; i < 15; i++) {
      const command =
        i % 5 === 4
          ? { CreateCommand: { templateId: ACCOUNT, createArguments: { owner: erin.party, id: `acct-${i}`, balance: "1" } } }
          : createIou(erin.party, String(i + 1)).commands.commands[0];
      const r = await s.json("POST", "/v2/commands/submit-and-wait", { commands: [command], commandId: `acp-erin-${i}`, actAs: [erin.party] }, erin.token);
      expect(r.status, r.text).toBe(200);
    }
    const accounts = { filtersByParty: { [erin.party]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: ACCOUNT, includeCreatedEventBlob: false } } } }] } } };
    for (const [eventFormat, size, count] of [[accounts, 1, 3], [accounts, 2, 3], [formatFor(erin.party), 4, 15]] as const) {
      const stream = await s.json("POST", "/v2/state/active-contracts", { eventFormat, activeAtOffset: (await s.json("GET", "/v2/state/ledger-end")).body.offset }, erin.token);
      const all = cidsOf(stream.body);
      expect(all).toHaveLength(count);
      const seen: string[] = [];
      let pageToken: string | undefined;
      do {
        const r = await page({ eventFormat, maxPageSize: size, ...(pageToken ? { pageToken } : {}) }, erin.token);
        expect(r.status, r.text).toBe(200);
        expect(r.body.activeContracts.length).toBeGreaterThan(0);
        seen.push(...cidsOf(r.body.activeContracts));
        pageToken = r.body.nextPageToken;
      } while (pageToken);
      expect(seen).toEqual(all);
    }
  });

  it("streams a party's ACS a chunk at a time, never the whole snapshot at once, in creation order", async () => {
    // One read of a party's whole snapshot held the event loop 0.4 s for 58 MB, and a client that
    // stopped reading held all of it (a hostile review).
    const fay = await s.partyUser("acp-fay");
    await createIous(fay, 1_100);
    const at = (await s.json("GET", "/v2/state/ledger-end")).body.offset;
    const paged = vi.spyOn(s.server.store, "activeContractsPage");
    const whole = vi.spyOn(s.server.store, "activeContracts");
    try {
      const stream = await s.json("POST", "/v2/state/active-contracts", { eventFormat: formatFor(fay.party), activeAtOffset: at }, fay.token);
      expect(stream.status).toBe(200);
      const streamed = cidsOf(stream.body);
      expect(streamed).toHaveLength(1_100);
      // (The node's automation reads the store too: only the calls for this party count.)
      const forFay = (calls: [{ parties?: readonly string[] }][]) => calls.filter(([q]) => q.parties?.includes(fay.party));
      expect(forFay(whole.mock.calls)).toEqual([]);
      // 500, 500 and 100 contracts, then an empty read (a short chunk may have been cut by its size).
      const fayReads = paged.mock.calls.flatMap(([q], i) => (q.parties?.includes(fay.party) ? [paged.mock.results[i]!.value as Promise<unknown[]>] : []));
      expect((await Promise.all(fayReads)).map((c) => c.length)).toEqual([500, 500, 100, 0]);
      const offsets = stream.body.map((e: { contractEntry: { JsActiveContract: { createdEvent: { offset: number; nodeId: number } } } }) => e.contractEntry.JsActiveContract.createdEvent);
      for (let i = 1; i < offsets.length; i++) expect(offsets[i].offset > offsets[i - 1].offset || (offsets[i].offset === offsets[i - 1].offset && offsets[i].nodeId > offsets[i - 1].nodeId)).toBe(true);
    } finally {
      paged.mockRestore();
      whole.mockRestore();
    }
  }, 60_000);

  it("streams everyone's ACS (an admin's any-party filter) a chunk at a time too, in creation order", async () => {
    // It was one read of every active contract: for a large ledger, the whole of it in memory at
    // once and the event loop held for the read.
    await createIous(await s.partyUser("acp-gil"), 600);
    const at = (await s.json("GET", "/v2/state/ledger-end")).body.offset;
    const admin = await s.adminToken();
    const everyone = await s.server.store.activeContracts({ activeAtOffset: at });
    expect(everyone.length).toBeGreaterThan(600);
    const paged = vi.spyOn(s.server.store, "activeContractsPage");
    const whole = vi.spyOn(s.server.store, "activeContracts");
    try {
      const stream = await s.json("POST", "/v2/state/active-contracts", { eventFormat: { filtersForAnyParty: wildcard }, activeAtOffset: at }, admin);
      expect(stream.status, stream.text).toBe(200);
      expect(cidsOf(stream.body)).toEqual(everyone.map((c) => c.contractId));
      const anyParty = (calls: [{ parties?: readonly string[]; activeAtOffset?: bigint }][]) => calls.filter(([q]) => q.parties === undefined && q.activeAtOffset === BigInt(at));
      expect(anyParty(whole.mock.calls)).toEqual([]);
      const chunks = await Promise.all(paged.mock.calls.flatMap(([q], i) => (q.parties === undefined ? [paged.mock.results[i]!.value as Promise<unknown[]>] : [])));
      // Full chunks, the rest, then an empty read (the node holds other tests' contracts too).
      const sizes = Array.from({ length: Math.ceil(everyone.length / 500) }, (_, i) => Math.min(500, everyone.length - 500 * i));
      expect(chunks.map((c) => c.length)).toEqual([...sizes, 0]);
    } finally {
      paged.mockRestore();
      whole.mockRestore();
    }
  }, 60_000);

  it("ends a page early once its payloads pass 4 MiB of JSON, and the pages still add up", async () => {
    // A hostile review made one page of 153 MB from 1,000 contracts of 65 KB; unread, a few held gigabytes.
    const carol = await s.partyUser("acp-carol");
    const currency = "X".repeat(60_000);
    await Promise.all(
      Array.from({ length: 80 }, async (_, i) => {
        const iou = { CreateCommand: { templateId: IOU, createArguments: { issuer: carol.party, owner: carol.party, currency, amount: String(i + 1), observers: [] } } };
        const r = await s.json("POST", "/v2/commands/submit-and-wait", { commands: [iou], commandId: `acp-big-${i}`, actAs: [carol.party] }, carol.token);
        expect(r.status, r.text).toBe(200);
      }),
    );
    const seen: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    const read = vi.spyOn(s.server.store, "activeContractsPage");
    do {
      const r = await page({ eventFormat: formatFor(carol.party), ...(pageToken ? { pageToken } : {}) }, carol.token);
      expect(r.status, r.text).toBe(200);
      expect(r.text.length).toBeLessThan(6 * 1024 * 1024);
      seen.push(...cidsOf(r.body.activeContracts));
      pageToken = r.body.nextPageToken;
      pages++;
    } while (pageToken);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(80);
    // The store was read no further than a page's bytes and a contract (all 80, 4.8 MB, in one read before).
    const carolReads = read.mock.calls.flatMap(([q], i) => (q.parties?.includes(carol.party) ? [read.mock.results[i]!.value as Promise<unknown[]>] : []));
    read.mockRestore();
    for (const chunk of await Promise.all(carolReads)) expect(jsonSize(chunk)).toBeLessThan(PAGE_MAX_BYTES + 70_000);
  });
});
