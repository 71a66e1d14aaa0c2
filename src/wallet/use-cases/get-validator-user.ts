/** `GET /v0/validator-user`: the validator operator's party and user, and whether it is featured. */
import type { OnboardingDeps } from "../wallet-deps.js";
import { walletErrors } from "../wallet-error.js";

export interface ValidatorUserInfo {
  readonly party: string;
  readonly userName: string;
  readonly featured: boolean;
}

export async function getValidatorUser(ctx: OnboardingDeps): Promise<ValidatorUserInfo> {
  const operator = await ctx.users.get(ctx.validatorUser);
  // Bootstrap onboards the operator before the APIs listen, so this means a broken start.
  if (!operator) throw walletErrors.unavailable("the validator operator is not onboarded yet");
  return { party: operator.party, userName: ctx.validatorUser, featured: await ctx.featured.isFeatured(operator.party) };
}
