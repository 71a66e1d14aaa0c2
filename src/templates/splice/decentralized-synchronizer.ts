/** Purchased extra traffic of a synchronizer member (Splice.DecentralizedSynchronizer). */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { defineTemplate, type Template } from "../../ledger/template.js";
import { spliceName } from "./packages.js";

const memberTraffic = t.record({
  dso: t.party,
  memberId: t.text,
  synchronizerId: t.text,
  migrationId: t.int64,
  totalPurchased: t.int64,
  numPurchases: t.int64,
  amuletSpent: t.numeric(),
  usdSpent: t.numeric(),
});
export type MemberTrafficPayload = ValueOf<typeof memberTraffic>;

export const MemberTraffic: Template<MemberTrafficPayload> = defineTemplate<MemberTrafficPayload>({
  id: spliceName("amulet", "Splice.DecentralizedSynchronizer", "MemberTraffic"),
  payload: memberTraffic,
  signatories: (p) => [p.dso],
});
