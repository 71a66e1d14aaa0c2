/**
 * The MongoDB adapter's causal clock: which time a session is advanced to before it reads, and
 * which time an operation leaves behind. Sessions are doubles recording the driver calls; whether
 * the server then waits for its majority snapshot is for the conformance suite (mongodb.test.ts).
 */
import { Binary, Long, Timestamp } from "mongodb";
import type { ClientSession, ClusterTime, MongoClient } from "mongodb";
import { describe, expect, it } from "vitest";
import { CausalClock, advance, laterTimestamp, latest } from "../../src/store/mongodb/causal-clock.js";

const ts = (t: number, i: number) => new Timestamp({ t, i });
const signed = (t: number, i: number): ClusterTime => ({ clusterTime: ts(t, i), signature: { hash: new Binary(Buffer.alloc(20)), keyId: Long.fromNumber(7) } });

describe("laterTimestamp and latest", () => {
  it("order timestamps by seconds, then increment", () => {
    expect(laterTimestamp(ts(10, 9), ts(11, 1))?.toString()).toBe(ts(11, 1).toString());
    expect(laterTimestamp(ts(11, 2), ts(11, 1))?.toString()).toBe(ts(11, 2).toString());
    expect(laterTimestamp(undefined, ts(1, 1))?.toString()).toBe(ts(1, 1).toString());
    expect(laterTimestamp(ts(1, 1), undefined)?.toString()).toBe(ts(1, 1).toString());
    expect(laterTimestamp(undefined, undefined)).toBeUndefined();
  });

  it("keep the later of each time independently", () => {
    const a = { operationTime: ts(20, 1), clusterTime: signed(15, 1) };
    const b = { operationTime: ts(18, 1), clusterTime: signed(25, 1) };
    const both = latest(a, b);
    expect(both.operationTime?.equals(ts(20, 1))).toBe(true);
    expect(both.clusterTime).toBe(b.clusterTime);
    expect(latest({}, {})).toEqual({});
  });
});

/** A session double recording what it was advanced to. */
function session(after?: { operationTime?: Timestamp; clusterTime?: ClusterTime }) {
  const calls: string[] = [];
  const s = {
    operationTime: undefined as Timestamp | undefined,
    clusterTime: undefined as ClusterTime | undefined,
    advanceOperationTime(t: Timestamp) {
      calls.push(`operationTime ${t.toString()}`);
      s.operationTime = t;
    },
    advanceClusterTime(c: ClusterTime) {
      calls.push(`clusterTime ${c.clusterTime.toString()}`);
      s.clusterTime = c;
    },
    /** What the server's answers to the operation leave on the session. */
    finish() {
      if (after?.operationTime) s.operationTime = after.operationTime;
      if (after?.clusterTime) s.clusterTime = after.clusterTime;
    },
  };
  return { s, calls };
}

function clientOf(s: ReturnType<typeof session>["s"]) {
  const options: unknown[] = [];
  const client = {
    withSession: async (o: unknown, fn: (session: ClientSession) => Promise<unknown>) => {
      options.push(o);
      return fn(s as unknown as ClientSession);
    },
  };
  return { client: client as unknown as MongoClient, options };
}

describe("advance", () => {
  it("hands a signed cluster time and the operation time to the session", () => {
    const { s, calls } = session();
    advance(s, { operationTime: ts(5, 2), clusterTime: signed(6, 1) });
    expect(calls).toEqual([`clusterTime ${ts(6, 1).toString()}`, `operationTime ${ts(5, 2).toString()}`]);
  });

  it("leaves out an unsigned cluster time (the driver refuses it) and does nothing for an empty clock", () => {
    const { s, calls } = session();
    advance(s, { clusterTime: { clusterTime: ts(6, 1) } });
    advance(s, {});
    expect(calls).toEqual([]);
  });
});

describe("CausalClock", () => {
  it("runs each operation in a causally consistent session that starts after everything observed", async () => {
    const clock = new CausalClock();
    clock.observe({ operationTime: ts(30, 1) });
    clock.observe({ operationTime: ts(20, 1) }); // an older time never moves it back
    const { s, calls } = session();
    const { client, options } = clientOf(s);
    expect(await clock.run(client, async () => "read")).toBe("read");
    expect(options).toEqual([{ causalConsistency: true }]);
    expect(calls).toEqual([`operationTime ${ts(30, 1).toString()}`]);
  });

  it("moves to where a successful operation got, and not for a failed one", async () => {
    const clock = new CausalClock();
    const ok = session({ operationTime: ts(40, 2), clusterTime: signed(41, 1) });
    await clock.run(clientOf(ok.s).client, async () => ok.s.finish());
    expect(clock.now.operationTime?.equals(ts(40, 2))).toBe(true);
    expect(clock.now.clusterTime?.clusterTime.equals(ts(41, 1))).toBe(true);

    const failed = session({ operationTime: ts(99, 1) });
    await expect(
      clock.run(clientOf(failed.s).client, async () => {
        failed.s.finish();
        throw new Error("write concern timed out");
      }),
    ).rejects.toThrow("write concern timed out");
    expect(clock.now.operationTime?.equals(ts(40, 2))).toBe(true);
  });
});
