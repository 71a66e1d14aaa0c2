/** ValidatorAdminService (`/v0/admin/*`): onboarding here, preapprovals and balances in coin-handlers.ts. */
import type { ServiceImpl } from "@connectrpc/connect";
import type { ValidatorAdminService } from "../../../../gen/ccwallet/validator/v0/validator_admin_service_pb.js";
import { listUsers, offboardUser, onboardUser } from "../../../wallet/index.js";
import { coinAdminHandlers, type NonCoinAdminMethod } from "./coin-handlers.js";
import { asValidatorAdmin, wire, type Handler } from "./endpoints.js";
import type { WalletApi } from "./wallet-api.js";
import { extend } from "../../../util/extend.js";

type Admin = typeof ValidatorAdminService;

const onboarding: { [K in NonCoinAdminMethod]: Handler<Admin, K, string> } = {
  onboardUser: async (req, _admin, api) => {
    const { party } = await onboardUser(api.wallet, { name: req.name, partyId: req.partyId, createPartyIfMissing: req.createPartyIfMissing });
    return { partyId: party };
  },
  listUsers: async (_req, _admin, api) => ({ usernames: await listUsers(api.wallet) }),
  offboardUser: async (req, _admin, api) => {
    await offboardUser(api.wallet, req.username);
    return {};
  },
};

export function validatorAdminService(api: WalletApi): ServiceImpl<Admin> {
  return wire<Admin>(api)(asValidatorAdmin, extend(coinAdminHandlers, onboarding));
}
