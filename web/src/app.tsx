/**
 * The wallet UI's root: the session (localStorage, survives a reload), the OIDC callback when the
 * page is the identity provider's redirect, then login or the wallet.
 */
import { useEffect, useState } from "preact/hooks";
import { loadSession, loadUiConfig, saveSession, type Session, type UiConfig } from "./api.js";
import { Login } from "./login.js";
import { completeOidcLogin } from "./oidc.js";
import { Wallet } from "./wallet.js";

export function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  const [config, setConfig] = useState<UiConfig>();
  const [failure, setFailure] = useState<string>();
  const set = (s: Session | undefined) => (saveSession(s), setSession(s));
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
