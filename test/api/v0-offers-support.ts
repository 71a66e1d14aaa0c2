/**
 * Shared setup of the `/v0` offer tests: a real node in static time, users onboarded through
 * `/v0/admin/users`, CC tapped in process, and readers of what the wallet did on `/v2`.
 */
import { expect } from "vitest";
import { ResponseLog } from "../support/openapi-validator.js";
import { startCc, type CcFixture } from "../support/cc-fixture.js";

export interface WalletUserHandle {
  readonly name: string;
  readonly party: string;
  readonly token: string;
}

export interface OffersFixture {
  readonly fx: CcFixture;
  readonly log: ResponseLog;
  readonly operator: string;
  /** A `/v0` call logged for the OpenAPI check (aliases that the OpenAPI does not have are not logged). */
  call(method: string, path: string, token: string | null, body?: unknown, logged?: boolean): Promise<{ status: number; body: any; text: string }>;
  onboard(name: string): Promise<WalletUserHandle>;
  /** A transfer-offer request body to `receiver`, due in an hour, with a fresh tracking id (`prefix-n-random`). */
  offerBody(prefix: string, defaults: { amount: string; description: string }): (receiver: WalletUserHandle, extra?: Record<string, unknown>) => OfferBody;
  /** POST /v0/wallet/transfer-offers as `from`, expecting 200; the offer's contract id. */
  createOffer(from: WalletUserHandle, body: Record<string, unknown>): Promise<string>;
  /** POST /v0/wallet/transfer-offers/{tracking_id}/status as `who`. */
  offerStatus(who: WalletUserHandle, trackingId: string): Promise<{ status: number; body: any; text: string }>;
  /** Runs the automation (DSO and wallet triggers) until it has nothing left to do. */
  settle(): Promise<void>;
  /** Runs `f` with the automation stopped, so intermediate states can be observed. */
  paused<T>(f: () => Promise<T>): Promise<T>;
  /** Active contracts of a template (package-name reference) for a party, read on `/v2` with that party's token. */
  acs(who: WalletUserHandle, template: string): Promise<{ contractId: string; createArgument: any }[]>;
  /** The transaction with this update id as `who` sees it on `/v2` (its events' template ids and choices). */
  update(who: WalletUserHandle, updateId: string): Promise<{ offset: number; commandId: string; events: { kind: string; templateId: string; choice?: string; contractId: string }[] }>;
  /** Completions of the wallet's commands (submitted as the validator user) for a party after an offset. */
  completions(party: string, after: number): Promise<{ commandId: string; updateId?: string; status?: { code: number } }[]>;
  ledgerEnd(): Promise<number>;
  balanceOf(party: string): Promise<string[]>;
}

export type OfferBody = { receiver_party_id: string; amount: string; description: string; expires_at: number; tracking_id: string } & Record<string, unknown>;

const HOUR = 3_600_000_000n;

export const TRANSFER_OFFER = "#splice-wallet:Splice.Wallet.TransferOffer:TransferOffer";
export const ACCEPTED_TRANSFER_OFFER = "#splice-wallet:Splice.Wallet.TransferOffer:AcceptedTransferOffer";
export const BUY_TRAFFIC_REQUEST = "#splice-wallet:Splice.Wallet.BuyTrafficRequest:BuyTrafficRequest";
export const AMULET = "#splice-amulet:Splice.Amulet:Amulet";

const filter = (party: string, template: string) => ({
  filtersByParty: { [party]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: template, includeCreatedEventBlob: false } } } }] } },
});
const wildcard = (party: string) => ({
  filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } },
});

export async function startOffers(): Promise<OffersFixture> {
  const fx = await startCc();
  const s = fx.t;
  const log = new ResponseLog();
  const operator = await s.token("administrator");
  const automation = s.server.network.automation;
  const ledgerEnd = async () => (await s.json("GET", "/v2/state/ledger-end")).body.offset as number;
  const f: OffersFixture = {
    fx,
    log,
    operator,
    async call(method, path, token, body, logged = true) {
      const r = await s.json(method, path, body, token);
      if (logged) log.add(method, path, r.status, r.body);
      return r;
    },
    async onboard(name) {
      const r = await f.call("POST", "/v0/admin/users", operator, { name });
      expect(r.status).toBe(200);
      return { name, party: r.body.party_id as string, token: await s.token(name) };
    },
    offerBody(prefix, defaults) {
      let n = 0;
      return (receiver, extra = {}) => ({
        receiver_party_id: receiver.party,
        ...defaults,
        expires_at: Number(fx.clock.now() + HOUR),
        tracking_id: `${prefix}-${++n}-${Math.random().toString(36).slice(2)}`,
        ...extra,
      });
    },
    async createOffer(from, body) {
      const r = await f.call("POST", "/v0/wallet/transfer-offers", from.token, body);
      expect(r.status, r.text).toBe(200);
      return r.body.offer_contract_id as string;
    },
    offerStatus: (who, trackingId) => f.call("POST", `/v0/wallet/transfer-offers/${encodeURIComponent(trackingId)}/status`, who.token),
    settle: () => automation.runNow(),
    async paused(run) {
      await automation.stop();
      try {
        return await run();
      } finally {
        automation.start();
      }
    },
    async acs(who, template) {
      const r = await s.json("POST", "/v2/state/active-contracts", { eventFormat: filter(who.party, template), activeAtOffset: await ledgerEnd() }, who.token);
      expect(r.status).toBe(200);
      return (r.body as any[]).map((e) => e.contractEntry.JsActiveContract.createdEvent);
    },
    async update(who, updateId) {
      const format = { includeTransactions: { eventFormat: wildcard(who.party), transactionShape: "TRANSACTION_SHAPE_LEDGER_EFFECTS" } };
      const r = await s.json("POST", "/v2/updates/update-by-id", { updateId, updateFormat: format }, who.token);
      expect(r.status, r.text).toBe(200);
      const t = r.body.update.Transaction.value;
      const events = (t.events as any[]).map((e) => {
        const [kind, ev] = Object.entries(e)[0] as [string, any];
        return { kind, templateId: ev.templateId as string, choice: ev.choice as string | undefined, contractId: ev.contractId as string };
      });
      return { offset: t.offset, commandId: t.commandId ?? "", events };
    },
    async completions(party, after) {
      // The wallet submits as the validator user; a participant admin may read any user's completions.
      const r = await s.json("POST", "/v2/commands/completions?stream_idle_timeout_ms=200", { userId: "administrator", parties: [party], beginExclusive: after }, await s.adminToken());
      expect(r.status, r.text).toBe(200);
      return (r.body as any[]).filter((x) => x.completionResponse.Completion).map((x) => x.completionResponse.Completion.value);
    },
    ledgerEnd,
    async balanceOf(party) {
      return (await fx.holdings(party)).map((h) => h.payload.amount.initialAmount.toString()).sort();
    },
  };
  return f;
}

/** A node with alice, bob and carol onboarded (in that order), each tapped the CC given to it. */
export async function startWithThreeUsers(taps: Partial<Record<"alice" | "bob" | "carol", string>>) {
  const o = await startOffers();
  const users = { alice: await o.onboard("alice"), bob: await o.onboard("bob"), carol: await o.onboard("carol") };
  for (const [name, amount] of Object.entries(taps)) await o.fx.tap(users[name as keyof typeof users].party, amount);
  return { o, ...users };
}
