/**
 * WebSocket streams between their upgrade request and their request frame: they hold a file
 * descriptor (for up to the request-frame timeout) but no stream slot yet. Bounded in all, and per
 * user once the upgrade is authenticated, as open streams are (maxStreams, maxStreamsPerUser), so
 * that neither the process's descriptors nor every caller's place can be taken by one caller.
 */
export interface WaitingSlot {
  /** Counts the slot against `user`'s share; false (the slot released) when the share is used up or the slot was released. */
  assign(user: string): boolean;
  /** Idempotent: the request frame arrived, or the socket closed or was refused. */
  release(): void;
}

export class WaitingSockets {
  private all = 0;
  private readonly byUser = new Map<string, number>();

  constructor(
    readonly max: number,
    readonly maxPerUser: number,
  ) {}

  /** A slot, or undefined when `max` sockets are waiting. */
  enter(): WaitingSlot | undefined {
    if (this.all >= this.max) return undefined;
    this.all++;
    let held = true;
    let user: string | undefined;
    const release = () => {
      if (!held) return;
      held = false;
      this.all--;
      if (user !== undefined) {
        const n = (this.byUser.get(user) ?? 1) - 1;
        if (n === 0) this.byUser.delete(user);
        else this.byUser.set(user, n);
      }
    };
    return {
      assign: (who) => {
        // Closed while it was being authenticated: nothing to count any more.
        if (!held) return false;
        const n = this.byUser.get(who) ?? 0;
        if (n >= this.maxPerUser) {
          release();
          return false;
        }
        this.byUser.set(who, n + 1);
        user = who;
        return true;
      },
      release,
    };
  }

  get waiting(): number {
    return this.all;
  }
}
