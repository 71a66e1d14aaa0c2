/**
 * The wallet UI's root: the session (localStorage, survives a reload), the OIDC callback when the
 * page is the identity provider's redirect, then login or the wallet.
 */
import { useEffect, useState } from "preact/hooks";
import { loadSession, loadUiConfig, saveSession, type Session, type UiConfig } from "./api.js";
import { Login } from "./login.js";
import { claims, completeOidcLogin } from "./oidc.js";
import { Wallet } from "./wallet.js";

export function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  const [config, setConfig] = useState<UiConfig>();
  const [failure, setFailure] = useState<string>();
  const set = (s: Session | undefined) => (saveSession(s), setSession(s));
  useEffect(() => expireSession(session, () => (set(undefined), setFailure("Your session has expired; log in again."))), [session?.token]);
  useEffect(() => {
    loadUiConfig().then(
      async (c) => {
        setConfig(c);
        if (c.oidc) {
          const s = await completeOidcLogin(c.oidc).catch((e: Error) => (setFailure(e.message), undefined));
          if (s) set(s);
        }
      },
      (e: Error) => setFailure(e.message),
    );
  }, []);
  return session ? <Wallet session={session} logout={() => set(undefined)} /> : <Login config={config} onLogin={set} failure={failure} />;
}

/** Logs out when the token expires (an OIDC access token lasts minutes to hours), rather than failing every call. */
function expireSession(session: Session | undefined, expire: () => void): (() => void) | undefined {
  const exp = session ? claims(session.token).exp : undefined;
  if (typeof exp !== "number") return undefined;
  const t = setTimeout(expire, Math.min(Math.max(exp * 1000 - Date.now(), 0), 2 ** 31 - 1));
  return () => clearTimeout(t);
}
