/** WalletService (`/v0/wallet/*`): user status here, everything on Canton Coin in coin-handlers.ts. */
import type { ServiceImpl } from "@connectrpc/connect";
import type { WalletService } from "../../../../gen/ccwallet/wallet/v0/wallet_service_pb.js";
import { getUserStatus } from "../../../wallet/index.js";
import { coinWalletHandlers } from "./coin-handlers.js";
import { asTokenUser, asWalletUser, wire, type Handler } from "./endpoints.js";
import type { WalletApi } from "./wallet-api.js";
import { extend } from "../../../util/extend.js";

type Wallet = typeof WalletService;

const userStatus: Handler<Wallet, "userStatus", string> = async (_req, userId, api) => {
  const s = await getUserStatus(api.wallet, userId);
  return { partyId: s.party, userOnboarded: s.onboarded, userWalletInstalled: s.walletInstalled, hasFeaturedAppRight: s.featured };
};

export function walletService(api: WalletApi): ServiceImpl<Wallet> {
  const wired = wire<Wallet>(api);
  // coinWalletHandlers' type lists every other method, so none can be left unwired.
  return extend(
    wired(asWalletUser, coinWalletHandlers),
    // Before onboarding too: it is how a client learns that it must onboard.
    wired(asTokenUser, { userStatus }),
  );
}
