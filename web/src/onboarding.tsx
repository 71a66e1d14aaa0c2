/** Onboarding (B.3): a logged-in user without a wallet presses "Onboard yourself" (`POST /v0/register`). */
import { api, type Session } from "./api.js";
import { Alert } from "./alert.js";
import { useAction } from "./action.js";

export function Onboarding({ session, logout, onboarded }: { session: Session; logout: () => void; onboarded: () => void }) {
  const { run, error, busy } = useAction(onboarded);
  return (
    <main>
      <h1>Welcome, {session.user}</h1>
      <p>You are not onboarded to this validator yet: onboarding allocates your party and installs your wallet.</p>
      <button disabled={busy} onClick={() => run(() => api(session, "POST", "/v0/register", {}))}>
        Onboard yourself
      </button>
      <button onClick={logout}>Log out</button>
      <Alert text={error} />
    </main>
  );
}
