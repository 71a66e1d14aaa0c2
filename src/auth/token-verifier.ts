/**
 * Bearer tokens: HS256 with the configured secret, or RS256/ES256 keys from a JWKS URL; an
 * audience when configured. The token's `sub` is the ledger user id. Every failure is Canton's
 * UNAUTHENTICATED, with the reason in the message but never the token itself.
 */
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from "jose";
import { errors, type LedgerError } from "../ledger/errors.js";
import { extend } from "../util/extend.js";

export interface AuthOptions {
  /** HS256 shared secret (raw bytes). */
  readonly secret?: Uint8Array;
  readonly jwksUrl?: string;
  readonly audience?: string;
  /**
   * This participant's id: without a configured audience, a token is a Ledger API token of this
   * node only if its audience names it (Canton's audience-based tokens) or its scope holds
   * `daml_ledger_api` (scope-based tokens) and its audience names no other participant.
   */
  readonly participantId?: string;
}

const LEDGER_API_SCOPE = "daml_ledger_api";

/** Canton's audience for a participant's audience-based tokens. */
const PARTICIPANT_AUDIENCE = "https://daml.com/jwt/aud/participant/";

function participantAudience(participantId: string): string {
  return `${PARTICIPANT_AUDIENCE}${participantId}`;
}

export interface VerifiedToken {
  readonly userId: string;
  /** Seconds since the epoch, if the token expires. */
  readonly expiresAt?: number;
}

export interface TokenVerifier {
  verify(authorization: string | null | undefined): Promise<VerifiedToken>;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function createTokenVerifier(options: AuthOptions): TokenVerifier {
  const jwks: JWTVerifyGetKey | undefined = options.jwksUrl ? remembersFailures(createRemoteJWKSet(new URL(options.jwksUrl))) : undefined;
  const cache = new Map<string, VerifiedToken>();
  return {
    async verify(authorization) {
      if (!authorization) throw errors.unauthenticated("no Authorization header");
      const m = BEARER.exec(authorization);
      if (!m) throw errors.unauthenticated("Authorization header is not a Bearer token");
      const token = m[1];
      const cached = cache.get(token);
      if (cached && (cached.expiresAt === undefined || cached.expiresAt * 1000 > Date.now())) return cached;
      const verified = await verifyToken(token, options, jwks);
      if (cache.size > 10_000) cache.clear();
      cache.set(token, verified);
      return verified;
    },
  };
}

async function verifyToken(token: string, options: AuthOptions, jwks: JWTVerifyGetKey | undefined): Promise<VerifiedToken> {
  const header = decodeHeader(token);
  const verifyOptions = { audience: options.audience, clockTolerance: 5 };
  try {
    const { payload } =
      header.alg === "HS256" && options.secret
        ? await jwtVerify(token, options.secret, extend(verifyOptions, { algorithms: ["HS256"] }))
        : jwks && (header.alg === "RS256" || header.alg === "ES256")
          ? await jwtVerify(token, jwks, extend(verifyOptions, { algorithms: ["RS256", "ES256"] }))
          : reject(`algorithm ${String(header.alg)} is not accepted`);
    if (typeof payload.sub !== "string" || payload.sub.length === 0) throw errors.unauthenticated("token has no sub (user id)");
    if (options.audience === undefined && !forThisLedger(payload, options.participantId)) {
      throw errors.unauthenticated(`token is not for this Ledger API: its scope lacks ${LEDGER_API_SCOPE} and its audience does not name this participant`);
    }
    return { userId: payload.sub, expiresAt: payload.exp };
  } catch (e) {
    throw asUnauthenticated(e);
  }
}

/**
 * Canton's two user-token formats: scope-based (`scope` holds `daml_ledger_api`) and audience-based
 * (`aud` names this participant). A token the same identity provider issued for another
 * application is neither. A token that names participants in its audience is for those alone,
 * whatever its scope (Canton's `validForParticipant`): identity providers that serve several
 * participants issue the scope and a participant audience together (so does the wallet SDK), and
 * one participant's token must not open another's ledger.
 */
function forThisLedger(payload: { readonly scope?: unknown; readonly aud?: unknown }, participantId: string | undefined): boolean {
  const audiences = typeof payload.aud === "string" ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
  const participants = audiences.filter((a): a is string => typeof a === "string" && a.startsWith(PARTICIPANT_AUDIENCE));
  if (participantId !== undefined && participants.length > 0) return participants.includes(participantAudience(participantId));
  return typeof payload.scope === "string" && payload.scope.split(" ").includes(LEDGER_API_SCOPE);
}

/** How long a failed JWKS fetch answers for the key set before it is fetched again. */
export const JWKS_FAILURE_HOLD_MS = 5_000;

/**
 * The key set, but a fetch that failed (the provider down, timing out, or answering garbage) is
 * remembered for JWKS_FAILURE_HOLD_MS: jose remembers keys, not failures, so every token with a
 * key id it lacks (any forged RS256 header) made the node fetch the provider's key set again.
 */
function remembersFailures(getKey: JWTVerifyGetKey): JWTVerifyGetKey {
  let failed: { readonly at: number; readonly error: unknown } | undefined;
  return async (header, token) => {
    if (failed && Date.now() - failed.at < JWKS_FAILURE_HOLD_MS) throw failed.error;
    try {
      const key = await getKey(header, token);
      failed = undefined;
      return key;
    } catch (e) {
      // A key set that was fetched but lacks the key is an answer, not a failure.
      if (!(e instanceof joseErrors.JWKSNoMatchingKey) && !(e instanceof joseErrors.JWKSMultipleMatchingKeys)) failed = { at: Date.now(), error: e };
      throw e;
    }
  };
}

function reject(why: string): never {
  throw errors.unauthenticated(why);
}

function decodeHeader(token: string): { alg?: unknown } {
  const [h] = token.split(".");
  try {
    return JSON.parse(Buffer.from(h, "base64url").toString("utf8")) as { alg?: unknown };
  } catch {
    throw errors.unauthenticated("token is not a JWT");
  }
}

function asUnauthenticated(e: unknown): LedgerError {
  if (e instanceof joseErrors.JWTExpired) return errors.unauthenticated("token expired");
  if (e instanceof joseErrors.JWSSignatureVerificationFailed) return errors.unauthenticated("token signature is invalid");
  if (e instanceof joseErrors.JWTClaimValidationFailed) return errors.unauthenticated(`token claim ${e.claim} is invalid: ${e.reason}`);
  if (e instanceof joseErrors.JOSEError) return errors.unauthenticated(`token is invalid (${e.code})`);
  if (e instanceof Error && e.name === "LedgerError") return e as LedgerError;
  return errors.unauthenticated("token is invalid");
}
