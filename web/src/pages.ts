/** The wallet's pages, routed by the URL hash so a reload stays on the page. */
export const pages = ["transfer", "transactions", "holdings", "traffic", "delegations"] as const;
export type Page = (typeof pages)[number];

export const pageTitles: Record<Page, string> = {
  transfer: "Transfer",
  transactions: "Transactions",
  holdings: "Holdings",
  traffic: "Traffic",
  delegations: "Delegations",
};

export function pageFromHash(hash: string): Page {
  const p = hash.replace(/^#/, "");
  return (pages as readonly string[]).includes(p) ? (p as Page) : "transfer";
}
