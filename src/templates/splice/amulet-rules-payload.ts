/** The `AmuletRules` payload, shared by its choice tables (amulet-rules.ts, amulet-rules-rounds.ts). */
import { t, type ValueOf } from "../../ledger/daml-type.js";
import type { TemplateRef } from "../../ledger/template.js";
import { AmuletConfig, ConfigSchedule } from "./amulet-config.js";
import { spliceName } from "./packages.js";

export const rulesPayload = t.record({ dso: t.party, configSchedule: ConfigSchedule, isDevNet: t.bool });
export type AmuletRulesPayload = ValueOf<typeof rulesPayload>;

/**
 * `AmuletRules` by identity and payload, for templates that fetch or exercise the rules from inside
 * their own choices but that the rules' choice table creates (TransferPreapproval): importing the
 * template itself would make an import cycle.
 */
export const AmuletRulesRef: TemplateRef<AmuletRulesPayload> = { id: spliceName("amulet", "Splice.AmuletRules", "AmuletRules"), payload: rulesPayload };

/** The config in force (this node never schedules future values). */
export const currentConfig = (rules: AmuletRulesPayload): AmuletConfig => rules.configSchedule.initialValue;

/** Types a choice's controllers against the rules payload. */
export const p = (fn: (r: AmuletRulesPayload) => readonly string[]) => fn;
