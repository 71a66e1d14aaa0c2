/**
 * Where Splice serves its paths besides the annotated ones: every `/v0/...` also under the real
 * prefix `/api/validator`, and the token-standard registry (`/registry/...`) also behind the
 * validator's scan proxy (`/v0/scan-proxy/registry/...`, `/api/validator/v0/scan-proxy/registry/...`).
 */
const VALIDATOR_PREFIX = "/api/validator";
const SCAN_PROXY = "/v0/scan-proxy";

export function spliceAliases(path: string): string[] {
  if (path.startsWith("/v0/")) return [VALIDATOR_PREFIX + path];
  if (path.startsWith("/registry/")) return [SCAN_PROXY + path, VALIDATOR_PREFIX + SCAN_PROXY + path];
  return [];
}

/** Paths whose errors (404, 405) answer in Splice's `{"error": ...}` shape. */
export function isSplicePath(path: string): boolean {
  return /^\/(?:v0|api\/validator|api\/scan|registry)(?:\/|$)/.test(path);
}
