export { startNetwork, type NetworkOptions, type RunningNetwork } from "./start-network.js";
export { bootstrapNetwork, DSO_PARTY_HINT, type GenesisContract, type NetworkParties } from "./bootstrap-network.js";
export { dsoSteps } from "./dso-steps.js";
export { amuletConfigOf } from "./amulet-config-of.js";
