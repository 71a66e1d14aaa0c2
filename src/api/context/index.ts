export { CallContext, type CallContextOptions } from "./call-context.js";
