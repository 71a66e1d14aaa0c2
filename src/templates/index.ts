import { TemplateRegistry } from "../ledger/registry.js";
import { demoTemplates } from "./demo.js";
import { spliceTemplates } from "./splice/index.js";
import { unimplementedTokenStandardInterfaces } from "./splice/token-standard/index.js";

export * from "./demo.js";

/** Every template this node knows: Canton Coin (Splice) and the small demo package. */
export function createRegistry(): TemplateRegistry {
  const registry = new TemplateRegistry();
  for (const tpl of [...demoTemplates, ...spliceTemplates]) registry.addTemplate(tpl as never);
  for (const iface of unimplementedTokenStandardInterfaces) registry.addInterface(iface);
  return registry;
}
