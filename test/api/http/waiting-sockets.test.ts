/** Waiting WebSocket places: bounded in all and per user, each released once whatever happens first. */
import { describe, expect, it } from "vitest";
import { WaitingSockets } from "../../../src/api/http/waiting-sockets.js";

describe("WaitingSockets", () => {
  it("bounds all places and each user's share, and releases a place once", () => {
    const w = new WaitingSockets(3, 2);
    const [a, b, c] = [w.enter()!, w.enter()!, w.enter()!];
    expect(w.enter()).toBeUndefined();
    expect([a.assign("alice"), b.assign("alice"), c.assign("alice")]).toEqual([true, true, false]);
    expect(w.waiting).toBe(2); // c gave its place back when refused
    a.release();
    a.release();
    expect(w.waiting).toBe(1);
    expect(w.enter()!.assign("alice")).toBe(true);
  });

  it("counts nothing for a socket that closed while it was being authenticated (found by review)", () => {
    const w = new WaitingSockets(10, 2);
    for (let i = 0; i < 3; i++) {
      const slot = w.enter()!;
      slot.release(); // the client left during authentication
      expect(slot.assign("alice")).toBe(false);
    }
    expect(w.waiting).toBe(0);
    expect([w.enter()!.assign("alice"), w.enter()!.assign("alice")]).toEqual([true, true]);
  });
});
