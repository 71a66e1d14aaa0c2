export { CallContext, requestHeaders, type CallContextOptions } from "./call-context.js";
