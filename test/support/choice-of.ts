/**
 * Tests name choices by string when a table of cases does (`lockedChoice(name)`); src/ uses the
 * templates' exported choice constants instead. Typed by the caller.
 */
import type { Choice, Template } from "../../src/ledger/template.js";
import { qualifiedId } from "../../src/ledger/template.js";

export function choiceOf<P, A = unknown, R = unknown>(template: Template<P>, name: string): Choice<P, A, R> {
  const c = template.choices.get(name);
  if (!c) throw new Error(`${qualifiedId(template.id)} has no choice ${name}`);
  return c as Choice<P, A, R>;
}
