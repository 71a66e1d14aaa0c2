/**
 * The metric label of a request: the template of the route it matched (`/v0/wallet/transfer-offers/{contract_id}/accept`),
 * so ids in paths never become label values. Unknown paths share one label.
 */
export const UNMATCHED = "unmatched";

interface Matcher {
  readonly method: string;
  readonly pattern: RegExp;
  readonly label: string;
}

/** A function from method and path to a label, built once from the served route templates. */
export function routeLabeler(routes: readonly { readonly httpMethod: string; readonly template: string }[], extra: readonly string[] = []) {
  const matchers: Matcher[] = routes.map((r) => ({ method: r.httpMethod, pattern: patternOf(r.template), label: r.template }));
  const fixed = new Set(extra);
  return (method: string, url: string): string => {
    const path = url.split("?", 1)[0];
    if (fixed.has(path)) return path;
    for (const m of matchers) if (m.method === method && m.pattern.test(path)) return m.label;
    return UNMATCHED;
  };
}

function patternOf(template: string): RegExp {
  const parts = template.split(/\{[^}]+\}/).map((p) => p.replace(/[.*+?^$()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join("[^/]+")}$`);
}
