/**
 * The wallet SDK's `token.allocation` namespace against a real node: a settlement leg allocated
 * from a funded wallet through the SDK's allocation instruction (the registry's allocation
 * factory), listed as pending, then executed, withdrawn or cancelled with the commands the SDK
 * builds from the registry's choice contexts. Execute and cancel need the executor's, sender's and
 * receiver's authority (the 1.0.0 controllers), so a settlement user acting as all three submits them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SDK } from "@canton-network/wallet-sdk";
import { startTestServer, type TestServer } from "../support/test-server.js";

let s: TestServer;
let dso: string;
let venue: string;
let n = 0;

beforeAll(async () => {
  s = await startTestServer();
  dso = s.server.network.parties.dso;
  venue = s.server.network.parties.validator;
});
afterAll(() => s?.stop());

async function onboard(name: string): Promise<string> {
  const res = await s.json("POST", "/v0/admin/users", { name }, await s.token("administrator"));
  expect(res.status, res.text).toBe(200);
  return res.body.party_id as string;
}

async function sdkAs(user: string) {
  const auth = { method: "static" as const, token: await s.token(user) };
  const base = await SDK.create({ auth, ledgerClientUrl: s.http, logAdapter: "console" });
  return base.extend({ token: { auth, registries: [s.http] } });
}

/** A user that can act as the venue and both sides of the leg (the settlement app's). */
async function settlerFor(sender: string, receiver: string): Promise<string> {
  const id = `settler-${++n}`;
  const rights = [venue, sender, receiver].map((party) => ({ kind: { CanActAs: { value: { party } } } }));
  expect((await s.json("POST", "/v2/users", { user: { id, primaryParty: venue }, rights })).status).toBe(200);
  return id;
}

/** Canton Coin as the SDK's asset list would name it, at this node's registry. */
const amulet = () => ({ id: "Amulet", displayName: "Amulet", symbol: "Amulet", registryUrl: new URL(s.http), admin: dso });

function leg(sender: string, receiver: string, amount: string) {
  const now = Date.now();
  return {
    settlement: {
      executor: venue,
      settlementRef: { id: `trade-${++n}`, cid: null },
      requestedAt: new Date(now - 1000).toISOString(),
      allocateBefore: new Date(now + 1_800_000).toISOString(),
      settleBefore: new Date(now + 3_600_000).toISOString(),
      meta: { values: {} },
    },
    transferLegId: "leg-0",
    transferLeg: { sender, receiver, amount, instrumentId: { admin: dso, id: "Amulet" }, meta: { values: {} } },
  };
}

type Sdk = Awaited<ReturnType<typeof sdkAs>>;
type Prepared = Awaited<ReturnType<Sdk["token"]["allocation"]["instruction"]["create"]>>;

/**
 * SDK 1.x declares `allocation.execute/withdraw/cancel` as returning an array of the union of
 * the command and the disclosed list; at run time it is the same `[command, disclosed]` pair
 * `instruction.create` returns, so it is read as that.
 */
const pair = (r: unknown): Prepared => r as Prepared;
const amountsOf = async (sdk: Sdk, partyId: string) => (await sdk.token.utxos.list({ partyId })).map((u) => u.interfaceViewValue.amount).sort();

/** Sender `name` with 50 CC and an allocation of `amount` to a fresh receiver; returns who is who. */
async function allocated(name: string, amount: string) {
  const [sender, receiver] = [await onboard(`${name}-s`), await onboard(`${name}-r`)];
  expect((await s.json("POST", "/v0/wallet/tap", { amount: "50.0" }, await s.token(`${name}-s`))).status).toBe(200);
  const senderSdk = await sdkAs(`${name}-s`);
  const [command, disclosed] = await senderSdk.token.allocation.instruction.create({ allocationSpecification: leg(sender, receiver, amount), asset: amulet() });
  await senderSdk.ledger.internal.submit({ commands: [command], actAs: [sender], disclosedContracts: disclosed, commandId: `sdk-allocate-${++n}` });
  const pending = await senderSdk.token.allocation.pending(sender);
  expect(pending).toHaveLength(1);
  return { sender, receiver, senderSdk, allocationCid: pending[0].contractId, pending, settler: await sdkAs(await settlerFor(sender, receiver)) };
}

describe("wallet SDK: token.allocation", () => {
  it("instruction.create allocates a leg; pending lists it; execute moves the CC to the receiver", async () => {
    const { sender, receiver, senderSdk, allocationCid, pending, settler } = await allocated("sdk-al1", "12.5");
    expect(pending[0].interfaceViewValue).toMatchObject({
      allocation: { transferLegId: "leg-0", transferLeg: { sender, receiver, amount: "12.5000000000" }, settlement: { executor: venue } },
      holdingCids: [expect.any(String)],
    });
    // The executor sees it too (an observer); the receiver is no stakeholder until it settles.
    expect((await settler.token.allocation.pending(venue)).map((p) => p.contractId)).toContain(allocationCid);
    const unlocked = await amountsOf(senderSdk, sender);
    expect(unlocked).toHaveLength(1);
    expect(Number(unlocked[0])).toBeLessThan(50 - 12.5); // the lock also holds the fee reserve

    const context = await settler.token.allocation.context.execute({ allocationCid, registryUrl: s.http });
    expect(Object.keys(context.choiceContextData.values as object).sort()).toEqual(["amulet-rules", "expire-lock", "featured-app-right", "open-round"]);
    const [command, disclosed] = pair(await settler.token.allocation.execute({ allocationCid, asset: amulet() }));
    await settler.ledger.internal.submit({ commands: [command], actAs: [venue, sender, receiver], disclosedContracts: disclosed, commandId: `sdk-execute-${++n}` });
    expect(await amountsOf(settler, receiver)).toEqual(["12.5000000000"]);
    expect(await senderSdk.token.allocation.pending(sender)).toEqual([]);
    // Only holding fees of the lock's rounds are gone (zero within the same round).
    const left = (await amountsOf(senderSdk, sender)).reduce((a, x) => a + Number(x), 0);
    expect(left).toBeCloseTo(50 - 12.5, 1);
  });

  it("withdraw by the sender unlocks the CC back", async () => {
    const { sender, senderSdk, allocationCid } = await allocated("sdk-al2", "5");
    const [command, disclosed] = pair(await senderSdk.token.allocation.withdraw({ allocationCid, asset: amulet() }));
    await senderSdk.ledger.internal.submit({ commands: [command], actAs: [sender], disclosedContracts: disclosed, commandId: `sdk-withdraw-${++n}` });
    expect(await senderSdk.token.allocation.pending(sender)).toEqual([]);
    expect((await amountsOf(senderSdk, sender)).reduce((a, x) => a + Number(x), 0)).toBeCloseTo(50, 8);
  });

  it("cancel with all three parties unlocks the CC back; the receiver gets nothing", async () => {
    const { sender, receiver, senderSdk, allocationCid, settler } = await allocated("sdk-al3", "5");
    const [command, disclosed] = pair(await settler.token.allocation.cancel({ allocationCid, asset: amulet() }));
    await settler.ledger.internal.submit({ commands: [command], actAs: [venue, sender, receiver], disclosedContracts: disclosed, commandId: `sdk-cancel-${++n}` });
    expect(await senderSdk.token.allocation.pending(sender)).toEqual([]);
    expect((await amountsOf(senderSdk, sender)).reduce((a, x) => a + Number(x), 0)).toBeCloseTo(50, 8);
    expect(await amountsOf(settler, receiver)).toEqual([]);
  });
});
