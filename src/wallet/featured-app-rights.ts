/**
 * The port that tells whether a party holds a featured app right (`Splice.Amulet:FeaturedAppRight`),
 * shown by `/v0/validator-user` and `/v0/wallet/user-status`. The Canton Coin model implements it.
 */
export interface FeaturedAppRights {
  isFeatured(party: string): Promise<boolean>;
}

export const noFeaturedAppRights: FeaturedAppRights = {
  isFeatured: async () => false,
};
