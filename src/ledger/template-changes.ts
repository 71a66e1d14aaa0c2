/**
 * Whether contracts of some templates were created or archived since the last look, from the
 * ledger's feed (every commit of this process, and the gaps it reads): a step that re-reads those
 * contracts only after a change costs nothing while they stand still. Unlike the automation
 * loop's change runs, no change is lost when the loop is stopped or busy.
 */
import { qualifiedId, type QualifiedName } from "./template.js";
import type { TransactionFeed } from "./transaction-feed.js";

export class TemplateChanges {
  /** Changed since the last `take` (at first: nothing read yet). */
  private changed = true;

  constructor(feed: TransactionFeed, templates: readonly { readonly id: QualifiedName }[]) {
    const ids = new Set(templates.map((t) => qualifiedId(t.id)));
    feed.subscribe((tx) => {
      if (this.changed) return;
      for (const n of tx.nodes) {
        if (ids.has(n.templateId) && (n.kind === "create" || n.consuming)) {
          this.changed = true;
          return;
        }
      }
    });
  }

  /**
   * Runs `look` if anything changed since the last look or `due` says it is time anyway; false
   * otherwise. A look that throws leaves the change for the next one (the loop's retry must look
   * again, not find nothing changed).
   */
  async whenChanged(due: boolean, look: () => Promise<boolean>): Promise<boolean> {
    const changed = this.changed;
    this.changed = false;
    if (!changed && !due) return false;
    try {
      return await look();
    } catch (e) {
      this.changed = true;
      throw e;
    }
  }
}
