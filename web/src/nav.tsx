/** Navigation links between the pages; the current one is marked aria-current. */
import { pageTitles, pages, type Page } from "./pages.js";

export function Nav({ page, go }: { page: Page; go: (p: Page) => void }) {
  return (
    <nav>
      {pages.map((p) => (
        <a key={p} href={`#${p}`} aria-current={page === p ? "page" : undefined} onClick={(e) => (e.preventDefault(), go(p))}>
          {pageTitles[p]}
        </a>
      ))}
    </nav>
  );
}
