/** VersionService: the Ledger API version and the features this participant offers. */
import type { ServiceImpl } from "@connectrpc/connect";
import { VersionService } from "../../../../gen/com/daml/ledger/api/v2/version_service_pb.js";
import { guard } from "./connect-error.js";
import type { LedgerApi } from "./ledger-api.js";

export const MAX_PAGE_SIZE = 1000;

export function versionService(api: LedgerApi): ServiceImpl<typeof VersionService> {
  return {
    // Public in Canton too: clients ask for the version before they have a token.
    getLedgerApiVersion: () =>
      guard(api.log, async () => ({
        version: api.apiVersion,
        features: {
          experimental: { staticTime: { supported: api.clock.mode === "static" } },
          userManagement: { supported: true, maxRightsPerUser: 1000, maxUsersPageSize: MAX_PAGE_SIZE },
          partyManagement: { maxPartiesPageSize: MAX_PAGE_SIZE },
          offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 60n } },
        },
      })),
  };
}
