/**
 * The wallet-user directory: the wallet parties the automation acts for are kept in memory and
 * walked again only when the directory changed, also when another instance sharing the store
 * changed it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { UserRecord } from "../../../src/ledger/records.js";
import { SqliteStore } from "../../../src/store/index.js";
import { WalletUsers } from "../../../src/wallet/index.js";

const user = (id: string): UserRecord => ({
  id,
  primaryParty: `${id}-party::ns`,
  isDeactivated: false,
  metadata: { resourceVersion: "0", annotations: {} },
  identityProviderId: "",
  rights: [],
});

describe("WalletUsers", () => {
  const dirs: string[] = [];
  const stores: SqliteStore[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  /** A store whose user walks are counted (the directory reads users only to walk them). */
  function openStore(file?: string) {
    if (!file) {
      const dir = mkdtempSync(join(tmpdir(), "ccwallet-wallet-users-"));
      dirs.push(dir);
      file = join(dir, "ledger.sqlite");
    }
    const store = new SqliteStore({ file });
    stores.push(store);
    const walks = { count: 0 };
    const counted = {
      setting: (name: string) => store.setting(name),
      putSetting: (name: string, value: string) => store.putSetting(name, value),
      users: (token: string, size: number) => {
        walks.count++;
        return store.users(token, size);
      },
    };
    return { store, file, walks, users: new WalletUsers(counted) };
  }

  it("walks the users once while nothing changes, and again after an onboarding or offboarding", async () => {
    const { store, walks, users } = openStore();
    for (const id of ["alice", "bob", "carol"]) await store.addUser(user(id));
    await users.put({ userId: "alice", party: "alice::ns", walletInstalled: true });
    await users.put({ userId: "bob", party: "shared::ns", walletInstalled: true });
    await users.put({ userId: "carol", party: "shared::ns", walletInstalled: true });

    expect(await users.walletParties()).toEqual(["alice::ns", "shared::ns"]);
    expect(await users.walletParties()).toEqual(["alice::ns", "shared::ns"]);
    expect(walks.count).toBe(1);

    await store.addUser(user("dave"));
    await users.put({ userId: "dave", party: "dave::ns", walletInstalled: false });
    expect(await users.walletParties()).toEqual(["alice::ns", "shared::ns", "dave::ns"]);
    await users.remove("alice");
    expect(await users.walletParties()).toEqual(["shared::ns", "dave::ns"]);
    expect(walks.count).toBe(3);
    expect((await users.list()).map((u) => u.userId)).toEqual(["bob", "carol", "dave"]);
  });

  it("sees a change another instance made to the shared store", async () => {
    const first = openStore();
    await first.store.addUser(user("erin"));
    await first.users.put({ userId: "erin", party: "erin::ns", walletInstalled: true });
    expect(await first.users.walletParties()).toEqual(["erin::ns"]);

    // Another WalletUsers on the same data (as another process would be): its write is seen.
    const other = new WalletUsers(first.store);
    await first.store.addUser(user("frank"));
    await other.put({ userId: "frank", party: "frank::ns", walletInstalled: true });
    expect(await first.users.walletParties()).toEqual(["erin::ns", "frank::ns"]);
    await other.remove("erin");
    expect(await first.users.walletParties()).toEqual(["frank::ns"]);
    expect(first.walks.count).toBe(3);
  });

  it("starts from the stored directory after a restart", async () => {
    const before = openStore();
    await before.store.addUser(user("gina"));
    await before.users.put({ userId: "gina", party: "gina::ns", walletInstalled: true });
    await before.store.close();
    stores.splice(stores.indexOf(before.store), 1);

    const after = openStore(before.file);
    expect(await after.users.walletParties()).toEqual(["gina::ns"]);
    expect(await after.users.get("gina")).toEqual({ userId: "gina", party: "gina::ns", walletInstalled: true });
  });
});
