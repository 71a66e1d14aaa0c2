export { createTokenVerifier, type AuthOptions, type TokenVerifier, type VerifiedToken } from "./token-verifier.js";
export { issueToken, type IssueOptions } from "./token-issuer.js";
export { loadOrCreateSecret, describeSecret, SECRET_FILE } from "./secret.js";
export * from "./rights.js";
