/** The parties the validator's wallet automation works for: the operator and every onboarded user. */
export type WalletParties = () => Promise<readonly string[]>;
