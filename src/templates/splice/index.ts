export * from "./packages.js";
export * from "./types.js";
export * from "./amulet-config.js";
export * from "./fees.js";
export * from "./metadata.js";
export * from "./holding-v1.js";
export * from "./round.js";
export * from "./amulet.js";
export * from "./validator-license.js";
export * from "./decentralized-synchronizer.js";
export * from "./transfer-types.js";
export * from "./execute-transfer.js";
export * from "./issuance.js";
export * from "./split-and-burn.js";
export * from "./amulet-rules.js";
export * from "./transfer-preapproval.js";
export * from "./external-party-setup-proposal.js";
export * from "./external-party-amulet-rules.js";
export * from "./amulet-transfer-instruction.js";
export * from "./amulet-allocation.js";

import type { Template } from "../../ledger/template.js";
import { AmuletRules } from "./amulet-rules.js";
import { amuletTemplates } from "./amulet.js";
import { MemberTraffic } from "./decentralized-synchronizer.js";
import { ExternalPartySetupProposal } from "./external-party-setup-proposal.js";
import { roundTemplates } from "./round.js";
import { tokenStandardTemplates } from "./token-standard/index.js";
import { TransferPreapproval } from "./transfer-preapproval.js";
import { validatorLicenseTemplates } from "./validator-license.js";
import { walletTemplates } from "./wallet/index.js";

/** Every Splice template this node serves. */
export const spliceTemplates: readonly Template<never>[] = [
  ...amuletTemplates,
  ...roundTemplates,
  ...validatorLicenseTemplates,
  MemberTraffic,
  AmuletRules,
  TransferPreapproval,
  ExternalPartySetupProposal,
  ...walletTemplates,
  ...tokenStandardTemplates,
] as unknown as Template<never>[];
