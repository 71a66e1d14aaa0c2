/**
 * Bench fixtures on a running node (not measured): parties with holdings, a receiver with a
 * preapproval through the featured validator, one ledger user acting for all senders, and the
 * disclosed contracts a sender hands over. Everything goes through ledger commands in process.
 */
import { createdEventBlobOf } from "../../src/ledger/created-event-blob.js";
import { issueToken } from "../../src/auth/index.js";
import { latestOpenRound, readNetwork } from "../../src/network/network-state.js";
import type { Command } from "../../src/ledger/commands.js";
import { LedgerClient } from "../../src/ledger/ledger-client.js";
import { Numeric } from "../../src/ledger/numeric.js";
import type { ContractRecord } from "../../src/ledger/records.js";
import type { Template } from "../../src/ledger/template.js";
import type { RunningServer } from "../../src/server.js";
import { Amulet, AmuletRules, AmuletRules_CreateTransferPreapproval, expiringAmount, FeaturedAppRight, scaleFees, TransferPreapproval } from "../../src/templates/splice/index.js";
import type { CcContext } from "./cc-commands.js";

const DAY = 86_400_000_000n;

export interface CcNetwork {
  readonly client: LedgerClient;
  readonly dso: string;
  readonly validator: string;
  readonly context: CcContext;
  /** Allocates parties and one user that can act as all of them; returns its token. */
  actors(prefix: string, n: number): Promise<{ parties: string[]; token: string }>;
  /** Creates `n` holdings of `amount` for `owner` at the open round, 100 per transaction. */
  holdings(owner: string, n: number, amount: string): Promise<string[]>;
}

const blob = (r: ContractRecord) => ({ contractId: r.contractId, templateId: r.templateId, blob: Buffer.from(createdEventBlobOf(r)).toString("base64") });

export async function ccNetwork(server: RunningServer, runId: string): Promise<CcNetwork> {
  const client = new LedgerClient(server.api.ledger, "cc-bench", server.api.namespace);
  const { dso, validator } = server.network.parties;
  const net = await readNetwork(client, dso);
  const open = latestOpenRound(net, server.api.clock.now());
  const [featured] = await client.active(FeaturedAppRight, [validator]);
  const rate = scaleFees(open.payload.amuletPrice, open.payload.transferConfigUsd).holdingFee;

  async function holdings(owner: string, n: number, amount: string): Promise<string[]> {
    const out: string[] = [];
    const payload = { dso, owner, amount: expiringAmount(Numeric.parse(amount), open.payload.round, rate) };
    for (let i = 0; i < n; i += 100) {
      const commands: Command[] = Array.from({ length: Math.min(100, n - i) }, () => ({ kind: "create", template: Amulet as Template<unknown>, payload }));
      const tx = await client.submit([dso, owner], commands);
      for (const node of tx.nodes) if (node.kind === "create") out.push(node.contractId);
    }
    return out;
  }

  const receiver = await client.allocateParty(`cc-receiver-${runId}`);
  const [fee] = await holdings(validator, 1, "1000");
  const { result } = await client.exercise(
    [validator, receiver],
    AmuletRules,
    net.rules.contractId,
    AmuletRules_CreateTransferPreapproval,
    {
      context: { amuletRules: net.rules.contractId, context: { openMiningRound: open.contractId, issuingMiningRounds: [], validatorRights: [], featuredAppRight: null } },
      inputs: [{ tag: "InputAmulet", value: fee }],
      receiver,
      provider: validator,
      expiresAt: server.api.clock.now() + 90n * DAY,
    },
    { disclosed: [net.rules.record, open.record] },
  );
  const preapproval = (await client.contract(TransferPreapproval, result.transferPreapprovalCid))!;
  const context: CcContext = {
    amuletRules: net.rules.contractId,
    openRound: open.contractId,
    featuredAppRight: featured?.contractId ?? null,
    preapproval: preapproval.contractId,
    blobs: [net.rules.record, open.record, preapproval.record, ...(featured ? [featured.record] : [])].map(blob),
  };

  async function actors(prefix: string, n: number) {
    const parties: string[] = [];
    for (let i = 0; i < n; i++) parties.push(await client.allocateParty(`${prefix}-${runId}-${i}`));
    const user = `${prefix}-${runId}`;
    const admin = await issueToken({ secret: server.secret, userId: "participant_admin" });
    const res = await fetch(`http://127.0.0.1:${server.httpPort}/v2/users`, {
      method: "POST",
      headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
      body: JSON.stringify({ user: { id: user, primaryParty: parties[0] }, rights: parties.map((party) => ({ kind: { CanActAs: { value: { party } } } })) }),
    });
    if (res.status !== 200) throw new Error(`create user: HTTP ${res.status} ${await res.text()}`);
    return { parties, token: await issueToken({ secret: server.secret, userId: user }) };
  }

  return { client, dso, validator, context, actors, holdings };
}
