/** ValidatorService: the public operator info, self-registration and the wallet's feature flags. */
import type { ServiceImpl } from "@connectrpc/connect";
import type { ValidatorService } from "../../../../gen/ccwallet/validator/v0/validator_service_pb.js";
import { getFeatureSupport, getValidatorUser, registerUser } from "../../../wallet/index.js";
import { asAnyone, asTokenUser, wire, type Handler } from "./endpoints.js";
import type { WalletApi } from "./wallet-api.js";
import { extend } from "../../../util/extend.js";

type Validator = typeof ValidatorService;

const getValidatorUserInfo: Handler<Validator, "getValidatorUserInfo", undefined> = async (_req, _caller, api) => {
  const info = await getValidatorUser(api.wallet);
  return { partyId: info.party, userName: info.userName, featured: info.featured };
};

const register: Handler<Validator, "register", string> = async (_req, userId, api) => ({ partyId: (await registerUser(api.wallet, userId)).party });

const featureSupport: Handler<Validator, "featureSupport", string> = async () => {
  const f = getFeatureSupport();
  return { tokenStandard: f.tokenStandard, transferPreapprovalDescription: f.transferPreapprovalDescription };
};

export function validatorService(api: WalletApi): ServiceImpl<Validator> {
  const wired = wire<Validator>(api);
  return extend(wired(asAnyone, { getValidatorUserInfo }), wired(asTokenUser, { register, featureSupport }));
}
