/** testing.TimeService: read ledger time; set it in static-time mode (compare-and-set). */
import type { ServiceImpl } from "@connectrpc/connect";
import { TimeService } from "../../../../gen/com/daml/ledger/api/v2/testing/time_service_pb.js";
import { requireAdmin } from "../../../auth/index.js";
import { StaticClock } from "../../../ledger/clock.js";
import { errors } from "../../../ledger/errors.js";
import { microsOf, timestampOf } from "../../convert/ledger-proto.js";
import { authenticate } from "./authenticate.js";
import { guard } from "./connect-error.js";
import type { LedgerApi } from "./ledger-api.js";

/** Name of the setting that keeps static time across restarts. */
export const STATIC_TIME_SETTING = "static_time_micros";

export function timeService(api: LedgerApi): ServiceImpl<typeof TimeService> {
  const staticClock = () => {
    if (!(api.clock instanceof StaticClock)) throw errors.unimplemented("TimeService is only available with CCWALLET_TIME=static");
    return api.clock;
  };
  return {
    getTime: (_req, ctx) =>
      guard(api.log, async () => {
        await authenticate(api, ctx);
        return { currentTime: timestampOf(staticClock().now()) };
      }),
    setTime: (req, ctx) =>
      guard(api.log, async () => {
        requireAdmin(await authenticate(api, ctx));
        const clock = staticClock();
        if (!req.currentTime) throw errors.missingField("current_time");
        if (!req.newTime) throw errors.missingField("new_time");
        const next = microsOf(req.newTime);
        switch (clock.set(microsOf(req.currentTime), next)) {
          case "mismatch":
            throw errors.invalidArgument(`current_time does not match the ledger time ${timestampOf(clock.now()).seconds}s`);
          case "backwards":
            throw errors.invalidArgument("new_time must not be before current_time: time cannot go backwards");
          case "ok":
            await api.store.putSetting(STATIC_TIME_SETTING, String(next));
            return {};
        }
      }),
  };
}
