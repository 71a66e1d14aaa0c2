/**
 * The store's writes outside transactions, one operation each: creates of parties and users, the
 * delete of a user, and idempotent upserts (settings, packages). Each carries the durable write
 * concern with its `wtimeout`, from the database handle (durability.ts); a write whose outcome is
 * unknown answers REQUEST_TIME_OUT, and a create's or delete's retry recognizes its own write
 * (write-outcome.ts).
 */
import type { ClientSession, Collection } from "mongodb";
import { encodeRecord } from "../codec.js";
import type { InSession } from "./causal-clock.js";
import type { RecordDoc } from "./documents.js";
import { ABSENT, UncertainWrites, writeOutcomeUnknown, writeTimedOut, type WriteState } from "./write-outcome.js";

/** What of a record collection the writes use. */
export type RecordCollection = Pick<Collection<RecordDoc>, "collectionName" | "updateOne" | "findOne" | "deleteOne">;

export class SingleWrites {
  /** @param inSession runs each operation in the store's causally consistent session. */
  constructor(
    private readonly inSession: InSession,
    private readonly uncertain = new UncertainWrites(),
  ) {}

  /**
   * Inserts unless the id exists; true if inserted, or if what is there is exactly what an
   * earlier attempt of this instance, whose outcome it did not learn, wrote. An upsert that only
   * sets on insert is atomic, and the server retries it itself when two instances race on the same
   * new id. The record is read back only after such an attempt.
   */
  async insertIfAbsent(collection: RecordCollection, id: string, record: unknown, what: string): Promise<boolean> {
    const key = keyOf(collection, id);
    const encoded = encodeRecord(record);
    return this.run(key, encoded, `${what} ${id}`, async (session) => {
      const result = await collection.updateOne({ _id: id }, { $setOnInsert: { record: encoded } }, { upsert: true, session });
      if (result.upsertedCount === 1) {
        this.uncertain.settle(key, encoded);
        return true;
      }
      if (!this.uncertain.has(key)) return false;
      // The upsert found a record. A write that changed nothing still waits for the primary's
      // latest write to reach a majority (mongod moves the client's last op to the system's), so
      // the record is durable, and a majority read after it in this causal session sees it.
      const found = await collection.findOne({ _id: id }, { session });
      return this.uncertain.settle(key, found?.record ?? ABSENT);
    });
  }

  /** Deletes the id; true if deleted, or if it is gone after an earlier attempt of this instance whose outcome it did not learn. */
  async deleteById(collection: RecordCollection, id: string, what: string): Promise<boolean> {
    const key = keyOf(collection, id);
    return this.run(key, ABSENT, `${what} ${id}`, async (session) => {
      const { deletedCount } = await collection.deleteOne({ _id: id }, { session });
      // Deleted now: whatever an earlier attempt did is moot. Nothing to delete: ours if an
      // earlier attempt may have deleted it.
      const ours = this.uncertain.settle(key, ABSENT);
      return deletedCount === 1 || ours;
    });
  }

  /** A write whose retry leaves the same state and answers alike (an upsert of a setting or a package). */
  async idempotent<T>(what: string, fn: (session: ClientSession) => Promise<T>): Promise<T> {
    try {
      return await this.inSession(fn);
    } catch (error) {
      throw writeOutcomeUnknown(error) ? writeTimedOut(what, error) : error;
    }
  }

  /** Runs a write that would leave `state` under `key`; if its outcome is unknown, remembers that and answers REQUEST_TIME_OUT. */
  private async run<T>(key: string, state: WriteState, what: string, fn: (session: ClientSession) => Promise<T>): Promise<T> {
    try {
      return await this.inSession(fn);
    } catch (error) {
      if (!writeOutcomeUnknown(error)) throw error;
      this.uncertain.remember(key, state);
      throw writeTimedOut(what, error);
    }
  }
}

const keyOf = (collection: RecordCollection, id: string) => `${collection.collectionName}/${id}`;
