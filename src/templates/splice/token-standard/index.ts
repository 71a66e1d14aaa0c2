export * from "./transfer-instruction-v1.js";
export * from "./choice-context.js";
export * from "./amulet-payments.js";
export * from "./two-step-transfer.js";
export * from "./amulet-transfer-factory.js";
export * from "./amulet-allocation-factory.js";
export * from "./allocation-v1.js";
export * from "./allocation-instruction-v1.js";
export * from "./allocation-request-v1.js";

import type { InterfaceDef, Template } from "../../../ledger/template.js";
import { AmuletAllocation } from "../amulet-allocation.js";
import { AmuletTransferInstruction } from "../amulet-transfer-instruction.js";
import { externalPartyAmuletRulesTemplates } from "../external-party-amulet-rules.js";
import { AllocationInstruction } from "./allocation-instruction-v1.js";
import { AllocationRequest } from "./allocation-request-v1.js";

/** The templates behind CC's token-standard transfer and allocation APIs. */
export const tokenStandardTemplates: readonly Template<never>[] = [
  ...externalPartyAmuletRulesTemplates,
  AmuletTransferInstruction,
  AmuletAllocation,
] as unknown as Template<never>[];

/**
 * Token-standard interfaces no CC template implements (CC allocates in one step; apps, not the
 * registry, implement allocation requests): registered on their own, as a validator that vetted
 * their packages knows them, so wallets' filters on them are valid and match nothing.
 */
export const unimplementedTokenStandardInterfaces: readonly InterfaceDef<unknown>[] = [AllocationInstruction, AllocationRequest] as readonly InterfaceDef<never>[];
