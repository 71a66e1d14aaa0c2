/**
 * Screenshots of the wallet UI for the README (docs/ui/*.png), from a real node and Chromium:
 *   npx tsx test/ui/take-screenshots.ts
 */
import chromium from "@sparticuz/chromium";
import { chromium as playwright, type Page } from "playwright-core";
import { startTestServer } from "../support/test-server.js";

const node = await startTestServer();
const op = await node.token("administrator");
await node.json("POST", "/v0/wallet/tap", { amount: "1000" }, op);
const args = chromium.args.filter((a) => a !== "--single-process" && a !== "--no-zygote");
const browser = await playwright.launch({ executablePath: process.env.CHROME_PATH ?? (await chromium.executablePath()), args, headless: true });
const page = async (): Promise<Page> => (await browser.newContext({ viewport: { width: 1000, height: 720 } })).newPage();
const shot = (p: Page, name: string) => p.screenshot({ path: `docs/ui/${name}.png` });

const alice = await page();
await alice.goto(node.http + "/");
await shot(alice, "login");
async function onboard(p: Page, user: string): Promise<string> {
  await p.goto(node.http + "/");
  await p.getByLabel("User name", { exact: true }).fill(user);
  await p.getByRole("button", { name: "Log in" }).click();
  await p.getByRole("button", { name: "Onboard yourself" }).click();
  await p.getByRole("region", { name: "Balance" }).waitFor();
  return (await p.getByLabel("Party ID", { exact: true }).textContent())!;
}
await onboard(alice, "alice");
const bob = await page();
const bobParty = await onboard(bob, "bob");
await alice.getByLabel("Tap amount", { exact: true }).fill("250");
await alice.getByRole("button", { name: "Tap" }).click();
await alice.getByLabel("Receiver", { exact: true }).fill(bobParty);
await alice.getByLabel("Amount", { exact: true }).fill("12.5");
await alice.getByLabel("Description", { exact: true }).fill("lunch");
await alice.getByRole("button", { name: "Send" }).click();
await alice.getByRole("status").waitFor();
// A second one as a token-standard transfer, so the receiver's Action needed shows both kinds.
await alice.getByLabel("Use a token-standard transfer", { exact: false }).check();
await alice.getByLabel("Amount", { exact: true }).fill("3");
await alice.getByLabel("Description", { exact: true }).fill("coffee");
await alice.getByRole("button", { name: "Send" }).click();
await alice.getByText("Created a token-standard transfer").waitFor();
await bob.waitForTimeout(2000);
await shot(alice, "wallet-sender");
await shot(bob, "wallet-receiver");
await alice.getByRole("link", { name: "Transactions" }).click();
await alice.waitForTimeout(2000);
await shot(alice, "transactions");
await alice.getByRole("link", { name: "Holdings" }).click();
await alice.waitForTimeout(2000);
await shot(alice, "holdings");
await alice.getByRole("button", { name: /^Pre-approve incoming direct transfers/ }).click();
await alice.getByRole("dialog").waitFor();
await shot(alice, "preapproval-dialog");
await alice.getByRole("button", { name: "Cancel" }).click();
// Traffic costs 666.8 CC per 200,000 bytes on DevNet's defaults: fund alice so the purchase completes.
await node.json("POST", "/v0/wallet/tap", { amount: "700" }, await node.token("alice"));
await alice.getByRole("link", { name: "Traffic" }).click();
await alice.getByRole("button", { name: "Buy traffic" }).click();
await alice.waitForTimeout(3000);
await shot(alice, "traffic");
await browser.close();
await node.stop();
process.exit(0);
