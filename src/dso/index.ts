export { startNetwork, type NetworkOptions, type RunningNetwork } from "./start-network.js";
export { bootstrapNetwork, DSO_PARTY_HINT, type GenesisContract, type NetworkParties } from "./bootstrap-network.js";
export { DsoAutomation } from "../automation/trigger-loop.js";
export { automationStep, inScope, type AutomationStep, type Scope, type Watched } from "../automation/automation-step.js";
export { readNetwork, latestOpenRound, openIssuingRounds, type NetworkState } from "../network/network-state.js";
export { amuletConfigOf } from "./amulet-config-of.js";
