/** ScanService (`/api/scan/v0/*`): the scan reads the wallet SDK makes; public, as scan is. */
import type { ServiceImpl } from "@connectrpc/connect";
import type { ScanService } from "../../../../gen/ccwallet/validator/v0/scan_service_pb.js";
import { MemberTraffic } from "../../../templates/splice/decentralized-synchronizer.js";
import { walletErrors } from "../../../wallet/index.js";
import { asAnyone, wire, type Handler } from "./endpoints.js";
import type { WalletApi } from "./wallet-api.js";

type Scan = typeof ScanService;

/** Canton member ids: `PAR::`, `MED::` or `SEQ::` then `identifier::namespace`. */
const MEMBER_ID = /^(?:PAR|MED|SEQ)::[A-Za-z0-9_\-]+::[0-9a-f]{4,}$/;

const scanHandlers: { [K in keyof Scan["method"]]: Handler<Scan, K, undefined> } = {
  getMemberTrafficStatus: async (req, _caller, api) => {
    if (!MEMBER_ID.test(req.memberId)) throw walletErrors.badRequest(`Invalid member id ${JSON.stringify(req.memberId)}`);
    if (req.domainId !== api.ledger.identity.synchronizerId) throw walletErrors.notFound(`Domain ${req.domainId} not found`);
    const traffic = await api.wallet.client.active(MemberTraffic, [api.wallet.dso]);
    const mine = traffic.filter((c) => c.payload.memberId === req.memberId && c.payload.synchronizerId === req.domainId && c.payload.dso === api.wallet.dso);
    const purchased = mine.reduce((sum, c) => sum + BigInt(c.payload.totalPurchased), 0n);
    // Only this participant's traffic is metered here; other members have consumed nothing we know of.
    const metered = req.memberId === api.ledger.traffic?.member ? await api.ledger.traffic.status(api.ledger.clock.now()) : undefined;
    const consumed = metered?.extraConsumed ?? 0n;
    return { trafficStatus: { actual: { totalConsumed: consumed, totalLimit: purchased }, target: { totalPurchased: purchased } } };
  },
};

export function scanService(api: WalletApi): ServiceImpl<Scan> {
  return wire<Scan>(api)(asAnyone, scanHandlers);
}
