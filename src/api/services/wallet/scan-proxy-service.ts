/** ScanProxyService (`/v0/scan-proxy/*`): reads for clients that build CC commands; any valid token. */
import type { ServiceImpl } from "@connectrpc/connect";
import type { ScanProxyService } from "../../../../gen/ccwallet/validator/v0/scan_proxy_service_pb.js";
import { scanProxyHandlers } from "./coin-handlers.js";
import { asTokenUser, wire } from "./endpoints.js";
import type { WalletApi } from "./wallet-api.js";

export function scanProxyService(api: WalletApi): ServiceImpl<typeof ScanProxyService> {
  return wire<typeof ScanProxyService>(api)(asTokenUser, scanProxyHandlers);
}
