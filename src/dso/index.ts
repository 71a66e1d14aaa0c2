export { startNetwork, type NetworkOptions, type RunningNetwork } from "./start-network.js";
export { bootstrapNetwork, DSO_PARTY_HINT, type GenesisContract, type NetworkParties } from "./bootstrap-network.js";
export { DsoAutomation } from "./dso-automation.js";
export { automationStep, inScope, type AutomationStep, type Scope, type Watched } from "./automation-step.js";
export { readNetwork, latestOpenRound, openIssuingRounds, type NetworkState } from "./network-state.js";
export { amuletConfigOf } from "./amulet-config-of.js";
