/**
 * Fan-out of completions to the streams that follow them, at no cost per commit for a stream the
 * commit does not concern (stream-watch.ts). The open streams are indexed by user: a completion
 * marks (and wakes) only the streams of its user whose parties acted in it. Offsets committed by
 * another instance (the feed fills them from the store, completion unknown) mark every stream.
 */
import type { CompletionRecord } from "./records.js";
import { WatchHub, type StreamWatch, type Watch } from "./stream-watch.js";

export type CompletionWatch = StreamWatch;

interface Follows {
  readonly userId: string;
  readonly parties: ReadonlySet<string>;
}

export class CompletionHub extends WatchHub<Follows> {
  private readonly byUser = new Map<string, Set<Watch<Follows>>>();

  /** Follows completions of `userId` that any of `parties` acted in; starts marked (it must catch up). */
  watch(userId: string, parties: ReadonlySet<string>): CompletionWatch {
    const w = this.addWatch({ userId, parties });
    let users = this.byUser.get(userId);
    if (!users) this.byUser.set(userId, (users = new Set()));
    users.add(w);
    return w;
  }

  protected removed(w: Watch<Follows>): void {
    const users = this.byUser.get(w.key.userId);
    users?.delete(w);
    if (users?.size === 0) this.byUser.delete(w.key.userId);
  }

  protected onTransaction(): void {}

  protected onOffset(_offset: bigint, completion: CompletionRecord | undefined): void {
    if (!completion) return this.markAll();
    const users = this.byUser.get(completion.userId);
    if (!users) return;
    for (const w of users) if (completion.actAs.some((p) => w.key.parties.has(p))) w.mark();
  }
}
