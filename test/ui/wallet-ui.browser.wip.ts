// WORK IN PROGRESS: not yet in `npm test` (file name is not *.test.ts). 3 of 8 scenarios pass; see the session report. Run: npx vitest run --dir test/ui --include "**/*.wip.ts"
/**
 * The wallet UI in a real headless Chromium against the real node: two users log in and onboard,
 * tap, pre-approve, send in one step and by offer, accept, withdraw, see a refusal, reload, log out.
 * Chromium comes from @sparticuz/chromium (inside its npm package); CHROME_PATH overrides it.
 */
import chromium from "@sparticuz/chromium";
import { chromium as playwright, type Browser, type Page } from "playwright-core";
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
  browser = await playwright.launch({ executablePath: process.env.CHROME_PATH ?? (await chromium.executablePath()), args: chromium.args, headless: true });
  alice = await (await browser.newContext()).newPage();
  bob = await (await browser.newContext()).newPage();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await node?.stop();
});

const balance = (p: Page) => p.getByRole("region", { name: "Balance" });

async function loginAndOnboard(page: Page, user: string): Promise<number> {
  const started = Date.now();
  await page.goto(node.http + "/");
  await page.getByLabel("User name", { exact: true }).fill(user);
  const interactive = Date.now() - started;
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("button", { name: "Onboard yourself" }).click();
  await expect.poll(() => balance(page).textContent()).toContain("0 CC");
  return interactive;
}

async function send(page: Page, receiver: string, amount: string, description: string): Promise<void> {
  await page.getByLabel("Receiver", { exact: true }).fill(receiver);
  await page.getByLabel("Amount", { exact: true }).fill(amount);
  await page.getByLabel("Description", { exact: true }).fill(description);
  await page.getByRole("button", { name: "Send" }).click();
}

describe("the wallet UI in Chromium", () => {
  it("logs two users in and onboards them (first screen interactive in < 1 s)", async () => {
    const ms = await loginAndOnboard(alice, "ui-alice");
    await loginAndOnboard(bob, "ui-bob");
    console.log(`first screen interactive after ${ms} ms`);
    expect(ms).toBeLessThan(1000);
  });

  it("taps and shows the balance", async () => {
    await alice.getByLabel("Tap amount", { exact: true }).fill("100");
    await alice.getByRole("button", { name: "Tap" }).click();
    await expect.poll(() => balance(alice).textContent()).toContain("100 CC");
  });

  it("pre-approves after the confirmation, and the button turns disabled", async () => {
    const button = bob.getByRole("button", { name: /^Pre-approve incoming direct transfers/ });
    await button.click();
    await bob.getByRole("button", { name: "Confirm" }).click();
    await expect.poll(() => button.isDisabled(), { timeout: 10_000 }).toBe(true);
  });

  it("sends in one step to a preapproved receiver; both balances update without reload", async () => {
    const bobParty = (await bob.getByLabel("Party ID", { exact: true }).textContent())!;
    await send(alice, bobParty, "10", "lunch");
    await expect.poll(() => alice.getByRole("status").textContent()).toBe("Sent 10 CC directly: the receiver pre-approved incoming transfers.");
    await expect.poll(() => balance(alice).textContent()).toContain("90 CC");
    await expect.poll(() => balance(bob).textContent()).toContain("10 CC");
  });

  it("sends an offer to a receiver without preapproval, which accepts it in its own browser", async () => {
    const aliceParty = (await alice.getByLabel("Party ID", { exact: true }).textContent())!;
    await send(bob, aliceParty, "4", "change");
    await expect.poll(() => bob.getByRole("status").textContent()).toBe("Created a transfer offer of 4 CC: the receiver has no preapproval and must accept it.");
    await alice.getByRole("button", { name: "Accept" }).click();
    await expect.poll(() => balance(alice).textContent(), { timeout: 10_000 }).toContain("94 CC");
    await expect.poll(() => balance(bob).textContent(), { timeout: 10_000 }).toContain("6 CC");
  });

  it("withdraws an outgoing offer", async () => {
    const aliceParty = (await alice.getByLabel("Party ID", { exact: true }).textContent())!;
    await send(bob, aliceParty, "1", "oops");
    await bob.getByRole("button", { name: "Withdraw" }).click();
    await expect.poll(() => bob.getByRole("button", { name: "Withdraw" }).count()).toBe(0);
    await expect.poll(() => alice.getByRole("button", { name: "Accept" }).count()).toBe(0);
  });

  it("shows the server's error when a send fails", async () => {
    const bobParty = (await bob.getByLabel("Party ID", { exact: true }).textContent())!;
    await send(alice, bobParty, "1000", "too much");
    await expect.poll(() => alice.getByRole("alert").count()).toBeGreaterThan(0);
    expect((await alice.getByRole("alert").first().textContent())!.length).toBeGreaterThan(0);
  });

  it("keeps the session across a reload, and logout returns to the login", async () => {
    await alice.reload();
    await expect.poll(() => balance(alice).textContent()).toContain("94 CC");
    await alice.getByRole("button", { name: "Log out" }).click();
    await expect.poll(() => alice.getByLabel("User name", { exact: true }).count()).toBe(1);
  });
});
