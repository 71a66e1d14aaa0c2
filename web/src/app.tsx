/**
 * The wallet UI: login, onboarding, then the wallet (header, balance, tap, transfer, offers, history).
 * Every screen polls the /v0 API every 1.5 s; every failed action shows the server's text in an alert.
 */
import { useCallback, useEffect, useState } from "preact/hooks";
import { api, devLogin, freshId, loadSession, saveSession, type Session } from "./api.js";

const pollMs = 1500;

/** Polls `load` while mounted; `refresh` reloads at once after an action. */
function usePoll<T>(load: () => Promise<T>, deps: unknown[]): { data: T | undefined; error: string | undefined; refresh: () => void } {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    const run = () => load().then((d) => live && (setData(d), setError(undefined)), (e: Error) => live && setError(e.message));
    run();
    const t = setInterval(run, pollMs);
    return () => ((live = false), clearInterval(t));
  }, [...deps, tick]);
  return { data, error, refresh: useCallback(() => setTick((n) => n + 1), []) };
}

/** Runs a user action; its failure goes to the alert, its success refreshes the views. */
function useAction(after: () => void): { run: (f: () => Promise<unknown>) => Promise<void>; error: string | undefined; busy: boolean } {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (f: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await f();
      after();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { run, error, busy };
}

function Alert({ text }: { text: string | undefined }) {
  return text ? <p role="alert" class="error">{text}</p> : null;
}

export function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  const set = (s: Session | undefined) => (saveSession(s), setSession(s));
  return session ? <Wallet session={session} logout={() => set(undefined)} /> : <Login onLogin={set} />;
}

function Login({ onLogin }: { onLogin: (s: Session) => void }) {
  const [user, setUser] = useState("");
  const { run, error, busy } = useAction(() => {});
  return (
    <main>
      <h1>ccwallet</h1>
      <form onSubmit={(e) => (e.preventDefault(), run(async () => onLogin(await devLogin(user.trim()))))}>
        <label>
          User name <input name="user" value={user} onInput={(e) => setUser(e.currentTarget.value)} required autoFocus />
        </label>
        <button type="submit" disabled={busy}>Log in</button>
      </form>
      <Alert text={error} />
    </main>
  );
}

interface UserStatus {
  party_id: string;
  user_onboarded: boolean;
  user_wallet_installed: boolean;
}

function Wallet({ session, logout }: { session: Session; logout: () => void }) {
  const status = usePoll(() => api<UserStatus>(session, "GET", "/v0/wallet/user-status"), [session.token]);
  const { run, error, busy } = useAction(status.refresh);
  if (status.data === undefined) {
    return (
      <main>
        <p>Loading…</p>
        <Alert text={status.error} />
        <button onClick={logout}>Log out</button>
      </main>
    );
  }
  if (!status.data.user_onboarded || !status.data.user_wallet_installed) {
    return (
      <main>
        <h1>Welcome, {session.user}</h1>
        <button disabled={busy} onClick={() => run(() => api(session, "POST", "/v0/register", {}))}>Onboard yourself</button>
        <button onClick={logout}>Log out</button>
        <Alert text={error} />
      </main>
    );
  }
  return <Onboarded session={session} party={status.data.party_id} logout={logout} />;
}

type Page = "transfer" | "transactions";

function Onboarded({ session, party, logout }: { session: Session; party: string; logout: () => void }) {
  const [page, setPage] = useState<Page>(location.hash === "#transactions" ? "transactions" : "transfer");
  const go = (p: Page) => (e: Event) => (e.preventDefault(), (location.hash = p), setPage(p));
  return (
    <>
      <Header session={session} party={party} logout={logout} />
      <nav>
        <a href="#transfer" aria-current={page === "transfer" ? "page" : undefined} onClick={go("transfer")}>Transfer</a>{" "}
        <a href="#transactions" aria-current={page === "transactions" ? "page" : undefined} onClick={go("transactions")}>Transactions</a>
      </nav>
      <main>
        <Balance session={session} />
        {page === "transfer" ? (
          <>
            <Tap session={session} />
            <SendForm session={session} />
            <Offers session={session} party={party} />
          </>
        ) : (
          <History session={session} />
        )}
      </main>
    </>
  );
}

function Header({ session, party, logout }: { session: Session; party: string; logout: () => void }) {
  const own = usePoll(() => api(session, "GET", `/v0/scan-proxy/transfer-preapprovals/by-party/${encodeURIComponent(party)}`).then(() => true, () => false), [party]);
  const [confirming, setConfirming] = useState(false);
  const { run, error, busy } = useAction(own.refresh);
  const has = own.data === true;
  return (
    <header>
      <strong>ccwallet · {session.user}</strong>{" "}
      <span aria-label="Party ID" id="party-id">{party}</span>{" "}
      <button onClick={() => navigator.clipboard?.writeText(party)}>Copy party ID</button>{" "}
      <button disabled={has || busy || own.data === undefined} onClick={() => setConfirming(true)}>
        {has ? "Pre-approve incoming direct transfers (active)" : "Pre-approve incoming direct transfers"}
      </button>{" "}
      <button onClick={logout}>Log out</button>
      {confirming && (
        <div role="dialog" aria-label="Confirm preapproval">
          <p>
            A transfer preapproval lets others send you CC in one step. The validator operator pays its fee (the amulet rules' preapproval fee per
            day of its lifetime) and renews it for you.
          </p>
          <button onClick={() => (setConfirming(false), run(() => api(session, "POST", "/v0/wallet/transfer-preapproval", {})))}>Confirm</button>
          <button onClick={() => setConfirming(false)}>Cancel</button>
        </div>
      )}
      <Alert text={error} />
    </header>
  );
}

interface BalanceResponse {
  round: number;
  effective_unlocked_qty: string;
  effective_locked_qty: string;
}

function Balance({ session }: { session: Session }) {
  const b = usePoll(() => api<BalanceResponse>(session, "GET", "/v0/wallet/balance"), [session.token]);
  return (
    <section aria-label="Balance">
      <h2>Balance</h2>
      {b.data ? (
        <p>
          <span data-testid="cc">{trimAmount(b.data.effective_unlocked_qty)} CC</span>
          {b.data.effective_locked_qty !== "0" && !/^0(\.0*)?$/.test(b.data.effective_locked_qty) && <> · {trimAmount(b.data.effective_locked_qty)} CC locked</>}
        </p>
      ) : (
        <p>…</p>
      )}
      <Alert text={b.error} />
    </section>
  );
}

/** Decimal strings stay strings: only trailing zeros go (B.4); no float ever touches an amount. */
export function trimAmount(s: string): string {
  return s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
}

function Tap({ session }: { session: Session }) {
  const [amount, setAmount] = useState("100");
  const { run, error, busy } = useAction(() => {});
  return (
    <section aria-label="DevNet tap">
      <h2>DevNet tap</h2>
      <label>
        Tap amount <input value={amount} inputMode="decimal" onInput={(e) => setAmount(e.currentTarget.value)} />
      </label>
      <button disabled={busy} onClick={() => run(() => api(session, "POST", "/v0/wallet/tap", { amount }))}>Tap</button>
      <Alert text={error} />
    </section>
  );
}

function SendForm({ session }: { session: Session }) {
  const [receiver, setReceiver] = useState("");
  const [amount, setAmount] = useState("");
  const [description, setDescription] = useState("");
  const [done, setDone] = useState<string>();
  const { run, error, busy } = useAction(() => {});
  const send = async () => {
    setDone(undefined);
    const to = receiver.trim();
    // One step when the receiver has a preapproval; otherwise an offer it must accept.
    const preapproved = await api(session, "GET", `/v0/scan-proxy/transfer-preapprovals/by-party/${encodeURIComponent(to)}`).then(() => true, () => false);
    if (preapproved) {
      await api(session, "POST", "/v0/wallet/transfer-preapproval/send", { receiver_party_id: to, amount, deduplication_id: freshId("ui-send"), description });
      setDone(`Sent ${amount} CC directly: the receiver pre-approved incoming transfers.`);
    } else {
      const expiresAt = (Date.now() + 3_600_000) * 1000;
      await api(session, "POST", "/v0/wallet/transfer-offers", { receiver_party_id: to, amount, description, expires_at: expiresAt, tracking_id: freshId("ui-offer") });
      setDone(`Created a transfer offer of ${amount} CC: the receiver has no preapproval and must accept it.`);
    }
  };
  return (
    <section aria-label="Send">
      <h2>Send CC</h2>
      <form onSubmit={(e) => (e.preventDefault(), run(send))}>
        <label>
          Receiver <input value={receiver} onInput={(e) => setReceiver(e.currentTarget.value)} required />
        </label>
        <label>
          Amount <input value={amount} inputMode="decimal" onInput={(e) => setAmount(e.currentTarget.value)} required />
        </label>
        <label>
          Description <input value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy}>Send</button>
      </form>
      {done && <p role="status">{done}</p>}
      <Alert text={error} />
    </section>
  );
}

/** A TransferOffer as `GET /v0/wallet/transfer-offers` lists it (Splice's Contract: id and payload side by side). */
interface OfferContract {
  contract_id: string;
  payload: { sender: string; receiver: string; amount: { amount: string }; description: string };
}

function Offers({ session, party }: { session: Session; party: string }) {
  const offers = usePoll(() => api<{ offers: OfferContract[] }>(session, "GET", "/v0/wallet/transfer-offers"), [session.token]);
  const { run, error } = useAction(offers.refresh);
  const all = offers.data?.offers ?? [];
  const act = (id: string, what: string) => () => run(() => api(session, "POST", `/v0/wallet/transfer-offers/${encodeURIComponent(id)}/${what}`, {}));
  const row = (o: OfferContract, buttons: preact.ComponentChildren) => (
    <li key={o.contract_id}>
      {trimAmount(o.payload.amount.amount)} CC · {o.payload.description || "no description"} · {buttons}
    </li>
  );
  return (
    <>
      <section aria-label="Action needed">
        <h2>Action needed</h2>
        <ul>
          {all.filter((o) => o.payload.receiver === party).map((o) =>
            row(o, <>from {o.payload.sender} <button onClick={act(o.contract_id, "accept")}>Accept</button> <button onClick={act(o.contract_id, "reject")}>Reject</button></>),
          )}
        </ul>
      </section>
      <section aria-label="Outgoing offers">
        <h2>Outgoing offers</h2>
        <ul>
          {all.filter((o) => o.payload.sender === party).map((o) =>
            row(o, <>to {o.payload.receiver} <button onClick={act(o.contract_id, "withdraw")}>Withdraw</button></>),
          )}
        </ul>
      </section>
      <Alert text={error ?? offers.error} />
    </>
  );
}

interface HistoryItem {
  event_id: string;
  transaction_type: string;
  transaction_subtype: { choice: string };
  date: string;
  amulet_price?: string;
}

function History({ session }: { session: Session }) {
  const h = usePoll(() => api<{ items: HistoryItem[] }>(session, "POST", "/v0/wallet/transactions", { page_size: 50 }), [session.token]);
  return (
    <section aria-label="Transaction history">
      <h2>Transactions</h2>
      <ul>
        {(h.data?.items ?? []).map((i) => (
          <li key={i.event_id}>
            {i.date} · {i.transaction_type} · {i.transaction_subtype.choice}
          </li>
        ))}
      </ul>
      <Alert text={h.error} />
    </section>
  );
}
