/** Signs HS256 ledger tokens with the configured secret (the `token` command and tests). */
import { SignJWT } from "jose";

export interface IssueOptions {
  readonly secret: Uint8Array;
  readonly userId: string;
  /** Lifetime in seconds; default one day. */
  readonly expiresInSeconds?: number;
  readonly audience?: string;
}

export function issueToken(options: IssueOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT({ scope: "daml_ledger_api" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(options.userId)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresInSeconds ?? 86_400));
  if (options.audience) jwt = jwt.setAudience(options.audience);
  return jwt.sign(options.secret);
}
