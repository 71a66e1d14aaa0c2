/** One party's spends run one after another, whatever their outcome; other parties' do not wait. */
import { describe, expect, it } from "vitest";
import { spendingAs } from "../../../src/wallet/support/spend-queue.js";
import { newWalletLocal, type WalletDeps } from "../../../src/wallet/wallet-deps.js";

const deps = () => ({ local: newWalletLocal() }) as WalletDeps;

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe("spendingAs", () => {
  it("runs a party's spends in order, each after the one before settled, failures included", async () => {
    const d = deps();
    const log: string[] = [];
    const first = gate();
    const a = spendingAs(d, "alice", async () => {
      log.push("a start");
      await first.opened;
      log.push("a end");
      throw new Error("a failed");
    });
    const b = spendingAs(d, "alice", async () => {
      log.push("b");
      return 2;
    });
    await Promise.resolve();
    expect(log).toEqual(["a start"]);
    first.open();
    await expect(a).rejects.toThrow("a failed");
    expect(await b).toBe(2);
    expect(log).toEqual(["a start", "a end", "b"]);
  });

  it("lets other parties, and the same party on other deps (another node), spend meanwhile", async () => {
    const d = deps();
    const held = gate();
    const alice = spendingAs(d, "alice", () => held.opened.then(() => "alice"));
    expect(await spendingAs(d, "bob", async () => "bob")).toBe("bob");
    expect(await spendingAs(deps(), "alice", async () => "alice elsewhere")).toBe("alice elsewhere");
    held.open();
    expect(await alice).toBe("alice");
  });
});
