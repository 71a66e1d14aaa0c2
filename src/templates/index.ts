import { TemplateRegistry } from "../ledger/registry.js";
import { demoTemplates } from "./demo.js";

export * from "./demo.js";

/** Every template this node knows. */
export function createRegistry(): TemplateRegistry {
  const registry = new TemplateRegistry();
  for (const tpl of demoTemplates) registry.addTemplate(tpl as never);
  return registry;
}
