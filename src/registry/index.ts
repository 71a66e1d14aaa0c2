export { RegistryError, badRequest, notFound } from "./registry-error.js";
export type { RegistryDeps } from "./registry-deps.js";
export { ChoiceContextBuilder, toDisclosedContract, type ChoiceContextWithDisclosures, type DisclosedContract } from "./choice-context-builder.js";
export { getTransferFactory, lookupTransferPreapproval, type TransferFactoryWithChoiceContext, type TransferKind } from "./transfer-factory.js";
export {
  getTransferInstructionChoiceContext,
  getTransferInstructionAcceptContext,
  getTransferInstructionRejectContext,
  getTransferInstructionWithdrawContext,
  type TransferInstructionChoice,
} from "./transfer-instruction-context.js";
export { getAllocationFactory, type FactoryWithChoiceContext } from "./allocation-factory.js";
export { getAllocationChoiceContext, type AllocationChoice } from "./allocation-context.js";
export { AMULET_INSTRUMENT_ID, SUPPORTED_APIS, instrument, listInstruments, registryInfo, type InstrumentInfo } from "./token-metadata.js";
