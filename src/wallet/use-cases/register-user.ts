/** `POST /v0/register`: self-onboarding; the ledger user is the token's subject. */
import type { PartyId } from "../../ledger/ids.js";
import { onboardUser } from "./onboard-user.js";
import type { OnboardingDeps } from "../wallet-deps.js";

export function registerUser(ctx: OnboardingDeps, tokenUser: string): Promise<{ party: PartyId }> {
  return onboardUser(ctx, { name: tokenUser });
}
