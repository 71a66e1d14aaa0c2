/** Login (B.3): the identity provider (OIDC + PKCE) when configured, and/or the development user-name login. */
import { useState } from "preact/hooks";
import { devLogin, type Session, type UiConfig } from "./api.js";
import { Alert } from "./alert.js";
import { useAction } from "./action.js";
import { startOidcLogin } from "./oidc.js";

export function Login({ config, onLogin, failure }: { config: UiConfig | undefined; onLogin: (s: Session) => void; failure: string | undefined }) {
  const [user, setUser] = useState("");
  const { run, error, busy } = useAction();
  const oidc = config?.oidc;
  return (
    <main>
      <h1>CC Wallet</h1>
      {oidc && (
        <p>
          <button disabled={busy} onClick={() => run(() => startOidcLogin(oidc))}>
            Sign in with the identity provider
          </button>{" "}
          <small>{oidc.issuer}</small>
        </p>
      )}
      {config?.devLogin !== false && (
        <form onSubmit={(e) => (e.preventDefault(), run(async () => onLogin(await devLogin(user.trim()))))}>
          <label>
            User name <input name="user" value={user} onInput={(e) => setUser(e.currentTarget.value)} required autoFocus />
          </label>
          <button type="submit" disabled={busy}>
            Log in
          </button>
          {oidc && <small> (development login)</small>}
        </form>
      )}
      <Alert text={error ?? failure} />
    </main>
  );
}
