export * from "./transfer-instruction-v1.js";
export * from "./choice-context.js";
export * from "./amulet-payments.js";
export * from "./two-step-transfer.js";
export * from "./amulet-transfer-factory.js";
export * from "./allocation-v1.js";

import type { Template } from "../../../ledger/template.js";
import { AmuletTransferInstruction } from "../amulet-transfer-instruction.js";
import { externalPartyAmuletRulesTemplates } from "../external-party-amulet-rules.js";

/** The templates behind CC's token-standard transfer API. */
export const tokenStandardTemplates: readonly Template<never>[] = [
  ...externalPartyAmuletRulesTemplates,
  AmuletTransferInstruction,
] as unknown as Template<never>[];
