export { walletAutomationSteps } from "./wallet-automation.js";
export type { WalletParties } from "./wallet-parties.js";
export type { AutomationLog } from "./automation-log.js";
