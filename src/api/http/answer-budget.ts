/**
 * Bytes of JSON array answers held in memory across all requests: an answer is built whole, then
 * waits in the process until its client reads it. Each answer is bounded (the list byte limit);
 * this bounds them together, so that many answers a client does not read cannot exhaust memory.
 * An answer holds its bytes from the first element until it has been handed to the socket or its
 * connection closed.
 *
 * One user holds at most a quarter of the budget: a hostile review kept the whole of it with
 * unread answers (a trickle of reads beat the stalled-reader cut-off), and every other user's
 * reads were refused for as long as it liked.
 */
export interface AnswerHold {
  /** Whose answer this is (the calling user; "" for a call without one), before its first `take`. */
  ownedBy(owner: string): void;
  /** Holds `bytes` more; false (nothing more held) past the budget or the owner's share. */
  take(bytes: number): boolean;
  /** Idempotent. */
  release(): void;
}

export class AnswerBudget {
  private held = 0;
  private readonly heldBy = new Map<string, number>();

  constructor(
    readonly maxBytes: number,
    readonly maxBytesPerOwner: number = Math.floor(maxBytes / 4),
  ) {}

  open(): AnswerHold {
    let mine = 0;
    let open = true;
    let owner = "";
    return {
      ownedBy: (o) => {
        if (mine === 0) owner = o;
      },
      take: (bytes) => {
        const owners = this.heldBy.get(owner) ?? 0;
        if (!open || this.held + bytes > this.maxBytes || owners + bytes > this.maxBytesPerOwner) return false;
        this.held += bytes;
        this.heldBy.set(owner, owners + bytes);
        mine += bytes;
        return true;
      },
      release: () => {
        if (!open) return;
        open = false;
        this.held -= mine;
        const left = (this.heldBy.get(owner) ?? 0) - mine;
        if (left > 0) this.heldBy.set(owner, left);
        else this.heldBy.delete(owner);
      },
    };
  }

  get heldBytes(): number {
    return this.held;
  }
}
