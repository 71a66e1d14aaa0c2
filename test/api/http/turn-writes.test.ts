import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { send } from "../../../src/api/http/http-io.js";

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function listen(handler: (path: string, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => handler(req.url ?? "", res));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("responses written at the end of the turn", () => {
  it("each of many concurrent requests gets its own body, and nothing is on the wire before the turn ends", async () => {
    let endedInHandler = 0;
    const url = await listen((path, res) => {
      send(res, 200, { path });
      if (res.writableEnded) endedInHandler++;
    });
    const paths = Array.from({ length: 50 }, (_, i) => `/r/${i}`);
    const bodies = await Promise.all(paths.map(async (p) => (await fetch(url + p)).json()));
    expect(bodies).toEqual(paths.map((path) => ({ path })));
    expect(endedInHandler).toBe(0);
  });

  it("a connection destroyed before its turn ends costs only its own answer", async () => {
    const held: ServerResponse[] = [];
    const url = await listen((path, res) => {
      held.push(res);
      if (held.length < 2) return;
      // Both answers are queued in one turn, then the first client's connection breaks.
      for (const r of held) send(r, 200, { ok: true });
      held[0].destroy();
    });
    const results = await Promise.allSettled([fetch(url + "/first").then((r) => r.json()), new Promise((r) => setTimeout(r, 50)).then(() => fetch(url + "/second").then((r) => r.json()))]);
    expect(results[0].status).toBe("rejected");
    expect(results[1]).toEqual({ status: "fulfilled", value: { ok: true } });
  });
});
