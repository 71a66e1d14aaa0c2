/**
 * Bytes of JSON array answers held in memory across all requests: an answer is built whole, then
 * waits in the process until its client reads it. Each answer is bounded (the list byte limit);
 * this bounds them together, so that many answers a client does not read cannot exhaust memory.
 * An answer holds its bytes from the first element until it has been handed to the socket or its
 * connection closed.
 */
export interface AnswerHold {
  /** Holds `bytes` more; false (nothing more held) past the budget. */
  take(bytes: number): boolean;
  /** Idempotent. */
  release(): void;
}

export class AnswerBudget {
  private held = 0;

  constructor(readonly maxBytes: number) {}

  open(): AnswerHold {
    let mine = 0;
    let open = true;
    return {
      take: (bytes) => {
        if (!open || this.held + bytes > this.maxBytes) return false;
        this.held += bytes;
        mine += bytes;
        return true;
      },
      release: () => {
        if (!open) return;
        open = false;
        this.held -= mine;
      },
    };
  }

  get heldBytes(): number {
    return this.held;
  }
}
