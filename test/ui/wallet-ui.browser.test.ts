/**
 * The wallet UI in a real headless Chromium against the real node: two users log in and onboard,
 * tap, pre-approve (the fee shown first), send in one step, by offer and by token-standard transfer,
 * accept, withdraw, see USD beside CC, page the history, list holdings, see the DevNet banner and the
 * featured star, buy traffic, see delegations, see a refusal, reload, log out.
 * Chromium comes from @sparticuz/chromium (inside its npm package); CHROME_PATH overrides it.
 */
import chromium from "@sparticuz/chromium";
import { chromium as playwright, type Browser, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

let node: TestServer;
let browser: Browser;
let alice: Page;
let bob: Page;

beforeAll(async () => {
  node = await startTestServer();
  // The operator pays the preapproval fees, so its wallet needs funds (as in the README session).
  const op = await node.token("administrator");
  expect((await node.json("POST", "/v0/wallet/tap", { amount: "1000" }, op)).status).toBe(200);
  // @sparticuz/chromium's defaults are for AWS Lambda; in one process its browser contexts share
  // storage, so two users' sessions would mix: run Chromium with its usual processes.
  const args = chromium.args.filter((a) => a !== "--single-process" && a !== "--no-zygote");
  browser = await playwright.launch({ executablePath: process.env.CHROME_PATH ?? (await chromium.executablePath()), args, headless: true });
  alice = await (await browser.newContext()).newPage();
  bob = await (await browser.newContext()).newPage();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await node?.stop();
});

const balance = (p: Page) => p.getByRole("region", { name: "Balance" });
/** A locator's text now, or "" while it is not there: Playwright's own wait would outlast every poll. */
const text = (l: Locator) => l.textContent({ timeout: 100 }).then((t) => t ?? "", () => "");
/** The UI refreshes every 1.5 s and a send takes a ledger round trip: give each expectation a few refreshes. */
const SLOW = { timeout: 10_000, interval: 100 };

async function loginAndOnboard(page: Page, user: string): Promise<number> {
  const started = Date.now();
  await page.goto(node.http + "/");
  await page.getByLabel("User name", { exact: true }).fill(user);
  const interactive = Date.now() - started;
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("button", { name: "Onboard yourself" }).click();
  await expect.poll(() => text(balance(page)), SLOW).toContain("0 CC");
  return interactive;
}

async function send(page: Page, receiver: string, amount: string, description: string): Promise<void> {
  await page.getByLabel("Receiver", { exact: true }).fill(receiver);
  await page.getByLabel("Amount", { exact: true }).fill(amount);
  await page.getByLabel("Description", { exact: true }).fill(description);
  await page.getByRole("button", { name: "Send" }).click();
}

describe("the wallet UI in Chromium", () => {
  it("logs two users in and onboards them", async () => {
    const ms = await loginAndOnboard(alice, "ui-alice");
    await loginAndOnboard(bob, "ui-bob");
    // Measured and reported, not asserted: timing belongs to benchmarks, not to a pass/fail test.
    console.log(`first screen interactive after ${ms} ms`);
  });

  it("taps and shows the balance", async () => {
    await alice.getByLabel("Tap amount", { exact: true }).fill("100");
    await alice.getByRole("button", { name: "Tap" }).click();
    await expect.poll(() => text(balance(alice)), SLOW).toContain("100 CC");
  });

  it("pre-approves after the confirmation, and the button turns disabled", async () => {
    const button = bob.getByRole("button", { name: /^Pre-approve incoming direct transfers/ });
    await button.click();
    // The dialog names the fee before anything happens (the amulet rules' USD per day, and per year).
    await expect.poll(() => text(bob.getByRole("dialog", { name: "Confirm preapproval" })), SLOW).toMatch(/Fee: [\d.,]+ USD per day/);
    await bob.getByRole("button", { name: "Confirm" }).click();
    await expect.poll(() => button.isDisabled(), SLOW).toBe(true);
  });

  it("sends in one step to a preapproved receiver; both balances update without reload", async () => {
    const bobParty = (await bob.getByLabel("Party ID", { exact: true }).textContent())!;
    await send(alice, bobParty, "10", "lunch");
    await expect.poll(() => text(alice.getByRole("status")), SLOW).toBe("Sent 10 CC directly: the receiver pre-approved incoming transfers.");
    await expect.poll(() => text(balance(alice)), SLOW).toContain("90 CC");
    await expect.poll(() => text(balance(bob)), SLOW).toContain("10 CC");
  });

  it("sends an offer to a receiver without preapproval, which accepts it in its own browser", async () => {
    const aliceParty = (await alice.getByLabel("Party ID", { exact: true }).textContent())!;
    await send(bob, aliceParty, "4", "change");
    await expect.poll(() => text(bob.getByRole("status")), SLOW).toBe("Created a transfer offer of 4 CC: the receiver has no preapproval and must accept it.");
    await alice.getByRole("button", { name: "Accept" }).click();
    await expect.poll(() => text(balance(alice)), SLOW).toContain("94 CC");
    await expect.poll(() => text(balance(bob)), SLOW).toContain("6 CC");
  });

  it("withdraws an outgoing offer", async () => {
    const aliceParty = (await alice.getByLabel("Party ID", { exact: true }).textContent())!;
    await send(bob, aliceParty, "1", "oops");
    await bob.getByRole("button", { name: "Withdraw" }).click();
    await expect.poll(() => bob.getByRole("button", { name: "Withdraw" }).count(), SLOW).toBe(0);
    await expect.poll(() => alice.getByRole("button", { name: "Accept" }).count(), SLOW).toBe(0);
  });

  it("shows the balance in USD at the open round's amulet price, exactly", async () => {
    // 94 CC at DevNet's default 0.005 USD/CC: exact decimal arithmetic, B.4's grouping and no rounding.
    await expect.poll(() => text(balance(alice)), SLOW).toContain("94 CC ≈ 0.47 USD @ 0.005 USD/CC");
  });

  it("sends a token-standard transfer when chosen, which the receiver accepts in its own browser", async () => {
    const aliceParty = (await alice.getByLabel("Party ID", { exact: true }).textContent())!;
    await bob.getByLabel("Use a token-standard transfer", { exact: false }).check();
    await send(bob, aliceParty, "2", "token standard");
    await expect.poll(() => text(bob.getByRole("status")), SLOW).toBe(
      "Created a token-standard transfer of 2 CC: the receiver has no preapproval and must accept it.",
    );
    const actionNeeded = alice.getByRole("region", { name: "Action needed" });
    await expect.poll(() => text(actionNeeded), SLOW).toContain("token-standard transfer from");
    await actionNeeded.getByRole("button", { name: "Accept" }).click();
    await expect.poll(() => text(balance(alice)), SLOW).toContain("96 CC");
    await expect.poll(() => actionNeeded.getByRole("button", { name: "Accept" }).count(), SLOW).toBe(0);
    await bob.getByLabel("Use a token-standard transfer", { exact: false }).uncheck();
  });

  it("shows another party's description as its quoted words only: no reordering, no fake line, Accept left of Reject", async () => {
    // A hostile review made an offer of 0.0000000001 CC read "↓ 1,000,000 CC" on a line of its
    // own, and swapped Accept and Reject with a right-to-left override, all from the description.
    const aliceParty = (await alice.getByLabel("Party ID", { exact: true }).textContent())!;
    const description = "\u2003".repeat(100) + "↓ 1,000,000 CC ≈ 5,000 USD \u202Etpecca";
    const offer = { receiver_party_id: aliceParty, amount: "0.0000000001", description, expires_at: (Date.now() + 3_600_000) * 1000, tracking_id: `ui-spoof-${Date.now()}` };
    const r = await node.json("POST", "/v0/wallet/transfer-offers", offer, await node.token("ui-bob"));
    expect(r.status, r.text).toBe(200);
    const row = alice.getByRole("region", { name: "Action needed" }).getByRole("listitem").filter({ hasText: "0.0000000001" });
    await expect.poll(() => row.count(), SLOW).toBe(1);
    expect(await text(row.locator(".free-text"))).toBe("“↓ 1,000,000 CC ≈ 5,000 USD tpecca”");
    const accept = await row.getByRole("button", { name: "Accept" }).boundingBox();
    const reject = await row.getByRole("button", { name: "Reject" }).boundingBox();
    expect(accept!.x).toBeLessThan(reject!.x);
    await row.getByRole("button", { name: "Reject" }).click();
    await expect.poll(() => row.count(), SLOW).toBe(0);
  });

  it("never has two polls of a list in flight, and keeps no API answer in the browser cache", async () => {
    // A hostile review filled a victim's offer list until each poll took longer than the period:
    // the page then had 8 requests of 34 MB in flight at once, and a click took 17 s.
    let inFlight = 0;
    let most = 0;
    // Every API call the page makes from now on records its cache mode.
    await alice.evaluate(() => {
      const w = window as unknown as { fetch: typeof fetch; cacheModes: (string | undefined)[] };
      const original = w.fetch.bind(window);
      w.cacheModes = [];
      w.fetch = (input, init) => (w.cacheModes.push(init?.cache), original(input, init));
    });
    const slow = async (route: Parameters<Parameters<Page["route"]>[1]>[0]) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 2500));
      await route.continue().catch(() => undefined);
      inFlight--;
    };
    await alice.route("**/v0/wallet/transfer-offers", slow);
    await new Promise((r) => setTimeout(r, 6000));
    await alice.unroute("**/v0/wallet/transfer-offers", slow);
    expect(most).toBe(1);
    const modes = await alice.evaluate(() => (window as unknown as { cacheModes: (string | undefined)[] }).cacheModes);
    expect(modes.length).toBeGreaterThan(0);
    expect(new Set(modes)).toEqual(new Set(["no-store"]));
  });

  it("pages the transaction history with Load more, each row in CC and USD", async () => {
    const bobToken = await node.token("ui-bob");
    for (let i = 0; i < 12; i++) expect((await node.json("POST", "/v0/wallet/tap", { amount: "1" }, bobToken)).status).toBe(200);
    await bob.getByRole("link", { name: "Transactions" }).click();
    const history = bob.getByRole("region", { name: "Transaction history" });
    const rows = () => history.getByRole("row").count().then((n) => n - 1); // minus the header row
    await expect.poll(rows, SLOW).toBe(10);
    // At the price of the round each tap used (the history's include_amulet_price), not the current one.
    expect(await text(history)).toContain("+1 CC ≈ 0.005 USD @ 0.005 USD/CC");
    expect(await text(history)).not.toContain("(current price)");
    await bob.getByRole("button", { name: "Load more" }).click();
    await expect.poll(rows, SLOW).toBeGreaterThan(10);
    // New transactions push rows off the live first page; they stay listed above the loaded ones.
    const shown = await rows();
    for (let i = 0; i < 3; i++) expect((await node.json("POST", "/v0/wallet/tap", { amount: "1" }, bobToken)).status).toBe(200);
    await expect.poll(rows, SLOW).toBeGreaterThanOrEqual(shown + 3);
  });

  it("lists the holdings (UTXOs)", async () => {
    await bob.getByRole("link", { name: "Holdings" }).click();
    const holdings = bob.getByRole("region", { name: "Holdings" });
    // The wallet's automation merges small amulets, so only their existence and amounts are certain.
    await expect.poll(() => holdings.getByRole("row").count(), SLOW).toBeGreaterThan(1);
    expect(await text(holdings)).toMatch(/[\d.,]+ CC ≈ [\d.,]+ USD @ 0\.005 USD\/CC\s*unlocked/);
  });

  it("shows the DevNet banner, and the featured-app star only for a party with a featured app right", async () => {
    expect(await text(bob.getByRole("note", { name: "Network" }))).toContain("DevNet");
    expect(await bob.getByRole("img", { name: "Featured app" }).count()).toBe(0);
    // The validator operator's party holds one from the network's bootstrap.
    const operator = await (await browser.newContext()).newPage();
    await operator.goto(node.http + "/");
    await operator.getByLabel("User name", { exact: true }).fill("administrator");
    await operator.getByRole("button", { name: "Log in" }).click();
    await expect.poll(() => operator.getByRole("img", { name: "Featured app" }).count(), SLOW).toBe(1);
    await operator.context().close();
  });

  it("buys traffic, showing its cost first, then the request's status", async () => {
    // 200,000 bytes at DevNet's 16.67 USD/MB cost 3.334 USD = 666.8 CC: fund bob first.
    expect((await node.json("POST", "/v0/wallet/tap", { amount: "700" }, await node.token("ui-bob"))).status).toBe(200);
    await bob.getByRole("link", { name: "Traffic" }).click();
    await expect.poll(() => text(bob.getByRole("region", { name: "Buy traffic" })), SLOW).toContain("costs 3.334 USD ≈ 666.8 CC");
    // What the cost line cannot read is not bought: `2e9` once bought 2,000,000,000 bytes unannounced.
    const amount = bob.getByLabel("Traffic amount (bytes)", { exact: false });
    for (const typed of ["2e9", "0x7fffffff", " 1e8 ", "0"]) {
      await amount.fill(typed);
      expect([typed, await bob.getByRole("button", { name: "Buy traffic" }).isDisabled()]).toEqual([typed, true]);
    }
    await amount.fill("200000");
    await bob.getByRole("button", { name: "Buy traffic" }).click();
    // Nothing is bought before the dialog that names the cost is confirmed.
    const dialog = bob.getByRole("dialog", { name: "Confirm traffic purchase" });
    expect(await text(dialog)).toContain("Buy 200000 bytes of traffic: costs 3.334 USD ≈ 666.8 CC");
    await dialog.getByRole("button", { name: "Confirm" }).click();
    const requests = bob.getByRole("list", { name: "Traffic requests" });
    await expect.poll(() => text(requests), SLOW).toMatch(/completed in /);
  });

  it("accepts, withdraws and rejects minting delegations", async () => {
    const bobParty = (await bob.getByLabel("Party ID", { exact: true }).textContent())!;
    const eve = await node.partyUser("ui-eve");
    const propose = async () => {
      const delegation = { beneficiary: eve.party, delegate: bobParty, dso: node.server.network.parties.dso, expiresAt: new Date(Date.now() + 86_400_000).toISOString(), amuletMergeLimit: "7" };
      const commands = [{ CreateCommand: { templateId: "#splice-wallet:Splice.Wallet.MintingDelegation:MintingDelegationProposal", createArguments: { delegation } } }];
      const r = await node.json("POST", "/v2/commands/submit-and-wait", { commands, commandId: `ui-propose-${Date.now()}`, actAs: [eve.party] }, eve.token);
      expect(r.status, r.text).toBe(200);
    };
    await bob.getByRole("link", { name: "Delegations" }).click();
    const proposed = bob.getByRole("region", { name: "Proposed delegations" });
    const active = bob.getByRole("region", { name: "Active delegations" });
    await expect.poll(() => text(active), SLOW).toContain("No active delegations.");
    await propose();
    await expect.poll(() => text(proposed), SLOW).toContain(`beneficiary ${eve.party} · max amulets 7`);
    await proposed.getByRole("button", { name: "Accept" }).click();
    await expect.poll(() => text(active), SLOW).toContain(`beneficiary ${eve.party}`);
    expect(await text(proposed)).toContain("No proposals.");
    await active.getByRole("button", { name: "Withdraw" }).click();
    await expect.poll(() => text(active), SLOW).toContain("No active delegations.");
    await propose();
    await proposed.getByRole("button", { name: "Reject" }).click();
    await expect.poll(() => text(proposed), SLOW).toContain("No proposals.");
    await bob.getByRole("link", { name: "Transfer" }).click();
  });

  it("shows the server's error when a send fails", async () => {
    const bobParty = (await bob.getByLabel("Party ID", { exact: true }).textContent())!;
    await send(alice, bobParty, "1000", "too much");
    await expect.poll(() => alice.getByRole("alert").count(), SLOW).toBeGreaterThan(0);
    expect((await alice.getByRole("alert").first().textContent())!.length).toBeGreaterThan(0);
    // Any failing action, not only a send: a refused tap shows the server's own reason in its panel.
    const tap = alice.getByRole("region", { name: "DevNet tap" });
    await alice.getByLabel("Tap amount", { exact: true }).fill("-5");
    await alice.getByRole("button", { name: "Tap" }).click();
    await expect.poll(() => text(tap.getByRole("alert")), SLOW).not.toBe("");
    const served = await node.json("POST", "/v0/wallet/tap", { amount: "-5" }, await node.token("ui-alice"));
    expect(served.status).toBeGreaterThanOrEqual(400);
    expect(await text(tap.getByRole("alert"))).toBe(served.body.error);
  });

  it("keeps the session across a reload, and logout returns to the login", async () => {
    await alice.reload();
    await expect.poll(() => text(balance(alice)), SLOW).toContain("96 CC");
    await alice.getByRole("button", { name: "Log out" }).click();
    await expect.poll(() => alice.getByLabel("User name", { exact: true }).count(), SLOW).toBe(1);
  });
});
