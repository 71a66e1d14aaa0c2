/**
 * The network's shared contracts (rules and rounds), read once and kept until a commit touches
 * one of them: every transfer, tap and registry answer needs them, and they change a few times an
 * hour, while reading them is four store queries and the decoding of every round. The feed tells
 * the cache of each commit; one that creates or archives a rules or round contract drops it.
 *
 * A caller may get the state as of the last commit the feed delivered, a moment behind the store:
 * exactly what a read made a moment earlier would give. A transfer built on a round that was
 * archived meanwhile fails the commit's activeness check and is retried, as before.
 */
import type { LedgerClient } from "../ledger/ledger-client.js";
import type { TransactionRecord } from "../ledger/records.js";
import { qualifiedId } from "../ledger/template.js";
import { AmuletRules } from "../templates/splice/amulet-rules.js";
import { ClosedMiningRound, IssuingMiningRound, OpenMiningRound } from "../templates/splice/round.js";
import { readNetwork, type NetworkState } from "./network-state.js";

/** Where the network's state is read from: the cache, or the store directly. */
export interface NetworkReader {
  read(): Promise<NetworkState>;
}

const WATCHED = new Set([AmuletRules, OpenMiningRound, IssuingMiningRound, ClosedMiningRound].map((t) => qualifiedId(t.id)));

export class NetworkCache implements NetworkReader {
  private state: Promise<NetworkState> | undefined;

  constructor(
    private readonly client: LedgerClient,
    private readonly dso: string,
    feed: { subscribe(listener: (tx: TransactionRecord) => void): () => void },
  ) {
    feed.subscribe((tx) => {
      if (tx.nodes.some((n) => WATCHED.has(n.templateId))) this.state = undefined;
    });
  }

  read(): Promise<NetworkState> {
    let state = this.state;
    if (!state) {
      state = this.state = readNetwork(this.client, this.dso);
      // A failed read is not kept: the next caller tries again.
      state.catch(() => {
        if (this.state === state) this.state = undefined;
      });
    }
    return state;
  }
}

/** Reads straight from the store each time (tests and tools that build deps by hand). */
export const uncachedNetwork = (client: LedgerClient, dso: string): NetworkReader => ({ read: () => readNetwork(client, dso) });
