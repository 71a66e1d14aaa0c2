/**
 * Wallet users for the wallet benches, made through the node's own `/v0` API as a client would:
 * onboarding by the operator, taps, a preapproval.
 */
import { issueToken } from "../../src/auth/index.js";
import type { BenchServer } from "../lib/setup.js";
import type { Actor } from "./wallet-load.js";

export async function post(bs: BenchServer, path: string, token: string, body: unknown): Promise<any> {
  const res = await fetch(bs.httpUrl + path, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${path}: HTTP ${res.status} ${text}`);
  return JSON.parse(text);
}

/** Onboards a wallet user through POST /v0/admin/users (as the operator); returns party and token. */
export async function onboard(bs: BenchServer, name: string): Promise<Actor> {
  const operator = await issueToken({ secret: bs.server.secret, userId: "administrator" });
  const { party_id } = await post(bs, "/v0/admin/users", operator, { name });
  return { party: party_id as string, token: await issueToken({ secret: bs.server.secret, userId: name }) };
}

/** A receiver with a preapproval and `n` senders with 100,000 CC each (the operator tapped too, to pay preapproval fees). */
export async function preapprovalSendActors(bs: BenchServer, prefix: string, n: number): Promise<{ receiver: Actor; senders: Actor[] }> {
  const operator = await issueToken({ secret: bs.server.secret, userId: "administrator" });
  await post(bs, "/v0/wallet/tap", operator, { amount: "100000" });
  const receiver = await onboard(bs, `${prefix}-receiver`);
  await post(bs, "/v0/wallet/transfer-preapproval", receiver.token, {});
  const senders: Actor[] = [];
  for (let i = 0; i < n; i++) {
    const sender = await onboard(bs, `${prefix}-sender-${i}`);
    await post(bs, "/v0/wallet/tap", sender.token, { amount: "100000" });
    senders.push(sender);
  }
  return { receiver, senders };
}
