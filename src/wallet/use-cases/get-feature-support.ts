/** `GET /v0/feature-support`: what this wallet supports (token-standard transfers, preapproval-send descriptions). */
export interface FeatureSupport {
  readonly tokenStandard: boolean;
  readonly transferPreapprovalDescription: boolean;
}

export function getFeatureSupport(): FeatureSupport {
  return { tokenStandard: true, transferPreapprovalDescription: true };
}
