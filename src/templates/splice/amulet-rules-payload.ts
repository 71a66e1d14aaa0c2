/** The `AmuletRules` payload, shared by its choice tables (amulet-rules.ts, amulet-rules-rounds.ts). */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import { AmuletConfig, ConfigSchedule } from "./amulet-config.js";

export const rulesPayload = t.record({ dso: t.party, configSchedule: ConfigSchedule, isDevNet: t.bool });
export type AmuletRulesPayload = ValueOf<typeof rulesPayload>;

/** The config in force (this node never schedules future values). */
export const currentConfig = (rules: AmuletRulesPayload): AmuletConfig => rules.configSchedule.initialValue;

/** Types a choice's controllers against the rules payload. */
export const p = (fn: (r: AmuletRulesPayload) => readonly string[]) => fn;
