/**
 * The externally signed path next to the plain one, in the same run on the same node: closed-loop
 * JSON clients creating an Iou with `submit-and-wait` as a local party, then with `prepare` → Ed25519
 * signature (libsodium) → `executeAndWait` as an external party, in alternating windows after a
 * warm-up of each. Issue #13's target: the signed path at >= 0.5x the plain path's rate. Then the
 * V2 hash alone over prepared transactions of growing size (it must grow linearly: 10x the input
 * contracts about 10x the time).
 *
 *   npx tsx bench/external/run.ts [seconds=5] [clients=16]
 */
import { create, fromBinary } from "@bufbuild/protobuf";
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Metadata_InputContractSchema, PreparedTransactionSchema, type PreparedTransaction } from "../../gen/com/daml/ledger/api/v2/interactive/interactive_submission_service_pb.js";
import { preparedTransactionHash } from "../../src/external/prepared-transaction-hash.js";
import { issueToken } from "../../src/auth/index.js";
import { startBenchServer } from "../lib/setup.js";
import { fmt, runStats } from "../lib/stats.js";

const seconds = Number(process.argv[2] ?? (process.env.BENCH_QUICK ? 2 : 5));
const clients = Number(process.argv[3] ?? 16);
const IOU = "#ccwallet-demo:Ccwallet.Demo.Iou:Iou";
const bs = await startBenchServer(10_000, {}, {});
const http = bs.httpUrl;
const admin = await issueToken({ secret: bs.server.secret, userId: "participant_admin" });

async function post(path: string, body: unknown, token: string): Promise<any> {
  const res = await fetch(http + path, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** An external party onboarded through the JSON Ledger API with a fresh Ed25519 key, and a user acting as it. */
async function externalParty(hint: string) {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(12);
  const synchronizer = bs.server.api.identity.synchronizerId;
  const gen = await post("/v2/parties/external/generate-topology", { synchronizer, partyHint: hint, publicKey: { format: "CRYPTO_KEY_FORMAT_RAW", keyData: raw.toString("base64"), keySpec: "SIGNING_KEY_SPEC_EC_CURVE25519" } }, admin);
  const signature = (bytes: Uint8Array) => sign(null, bytes, privateKey).toString("base64");
  const sig = (bytes: Uint8Array) => ({ format: "SIGNATURE_FORMAT_CONCAT", signature: signature(bytes), signedBy: gen.publicKeyFingerprint, signingAlgorithmSpec: "SIGNING_ALGORITHM_SPEC_ED25519" });
  await post("/v2/parties/external/allocate", { synchronizer, onboardingTransactions: gen.topologyTransactions.map((transaction: string) => ({ transaction })), multiHashSignatures: [sig(Buffer.from(gen.multiHash, "base64"))] }, admin);
  const party = gen.partyId as string;
  await post("/v2/users", { user: { id: hint, primaryParty: party }, rights: [{ kind: { CanActAs: { value: { party } } } }] }, admin);
  const pkcs8 = privateKey.export({ format: "der", type: "pkcs8" }).toString("base64");
  return { party, token: await issueToken({ secret: bs.server.secret, userId: hint }), sig, pkcs8, fingerprint: gen.publicKeyFingerprint as string };
}

const iou = (party: string) => ({ CreateCommand: { templateId: IOU, createArguments: { issuer: party, owner: party, currency: "CC", amount: "1", observers: [] } } });

const local = await bs.partyUser(`plain-${Date.now().toString(36)}`);
const ext = await externalParty(`signed-${Date.now().toString(36)}`);
console.log(`external signing bench: ${clients} JSON clients in a separate process, ${seconds} s windows`);

interface Window {
  readonly perSec: number;
  /** CPU per operation, µs: the node's process and the load generator's. */
  readonly node: number;
  readonly client: number;
}

/** Runs `mode`'s closed loops in a client process (own core, as a real client), prints and returns its rate and CPU. */
async function measure(mode: "plain" | "signed" | "prepare", label: string): Promise<Window> {
  const who = mode === "plain" ? { party: local.party, token: local.token } : { party: ext.party, token: ext.token, key: ext.pkcs8, fingerprint: ext.fingerprint };
  const args = JSON.stringify({ http, mode, seconds, clients, ...who });
  const child = spawn(process.execPath, ["--import", "tsx", "bench/external/client.ts", args], { stdio: ["ignore", "pipe", "inherit"] });
  // The node's CPU over the client's measured window, which the client marks with a line at each edge.
  let nodeCpu = { user: 0, system: 0 };
  let started = process.cpuUsage();
  let pending = "";
  let result = "";
  child.stdout!.on("data", (d: Buffer) => {
    const lines = (pending + d.toString("utf8")).split("\n");
    pending = lines.pop()!;
    for (const line of lines) {
      if (line === "window-start") started = process.cpuUsage();
      else if (line === "window-end") nodeCpu = process.cpuUsage(started);
      else if (line !== "") result = line;
    }
  });
  await new Promise((resolve) => child.on("exit", resolve));
  const r = JSON.parse(result || pending) as { latencies: number[]; errors: number; window: { ops: number; cpuMicros: number } };
  const st = runStats(r.latencies, seconds, r.errors);
  // CPU per operation in the window, the node's process and the client's: on 2 cores they share
  // the machine, so a client that costs as much as the node halves both.
  const node = (nodeCpu.user + nodeCpu.system) / r.window.ops;
  const client = r.window.cpuMicros / r.window.ops;
  console.log(
    `${label.padEnd(34)} ${fmt(st.perSec).padStart(7)}/s  p50 ${fmt(st.p50, 2)}  p90 ${fmt(st.p90, 2)}  p99 ${fmt(st.p99, 2)} ms  errors ${r.errors}  cpu node ${fmt(node, 0)} µs/op, client ${fmt(client, 0)} µs/op`,
  );
  return { perSec: st.perSec, node, client };
}

/**
 * BENCH_PROFILE=signed (or 1) | plain | prepare: the node's CPU profile during the first window of
 * that mode, written to $TMPDIR/ccwallet-external.cpuprofile; with BENCH_HEAP=1, a sampling heap
 * profile of what that window allocates (freed objects included) in ccwallet-external.heapprofile.
 * Either slows the window it profiles.
 */
let profiled = process.env.BENCH_PROFILE === "1" ? "signed" : process.env.BENCH_PROFILE;
async function profiling<T>(mode: string, run: () => Promise<T>): Promise<T> {
  if (mode !== profiled) return run();
  profiled = undefined;
  const session = new Session();
  session.connect();
  if (process.env.BENCH_HEAP) {
    await session.post("HeapProfiler.enable");
    await session.post("HeapProfiler.startSampling", { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    const result = await run();
    const { profile } = await session.post("HeapProfiler.stopSampling");
    writeFileSync(join(tmpdir(), "ccwallet-external.heapprofile"), JSON.stringify(profile));
    return result;
  }
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  const result = await run();
  const { profile } = await session.post("Profiler.stop");
  writeFileSync(join(tmpdir(), "ccwallet-external.cpuprofile"), JSON.stringify(profile));
  return result;
}

// Plain and signed windows alternate (plain, signed, ..., plain): this machine's speed drifts by
// ±15 % within minutes, and one window of each, one after the other, measured the drift as much
// as the ratio (0.34 to 0.42 for the same code within an hour). Two signed windows still read
// ±0.02 from run to run; three read a steadier mean.
await measure("plain", "warm-up, plain (not counted)");
await measure("signed", "warm-up, signed (not counted)");
const plains: Window[] = [];
const signeds: Window[] = [];
const ROUNDS = 3;
for (let i = 0; i < ROUNDS; i++) {
  plains.push(await profiling("plain", () => measure("plain", "plain submit-and-wait")));
  signeds.push(await profiling("signed", () => measure("signed", "prepare + sign + executeAndWait")));
}
plains.push(await measure("plain", "plain submit-and-wait"));
const mean = (ws: readonly Window[], of: (w: Window) => number) => ws.reduce((a, w) => a + of(w), 0) / ws.length;
const [plain, signed] = [mean(plains, (w) => w.perSec), mean(signeds, (w) => w.perSec)];
console.log(`ratio signed/plain: ${fmt(signed / plain, 2)} (target >= 0.50; means of ${ROUNDS} signed and ${ROUNDS + 1} plain windows, alternating: ${fmt(signed)}/s vs ${fmt(plain)}/s)`);
// Where the gap is: on 2 cores the load generator's CPU is taken from the node, and a signed
// operation costs it two requests and an Ed25519 signature. A node that spends twice a plain
// submit's CPU per signed operation reads 0.50 on the first line only if its client costs no more.
const cpu = (of: (w: Window) => number) => [mean(signeds, of), mean(plains, of)] as const;
const [nodeSigned, nodePlain] = cpu((w) => w.node);
const [clientSigned, clientPlain] = cpu((w) => w.client);
console.log(
  `CPU per operation, plain/signed: node ${fmt(nodePlain / nodeSigned, 2)} (${fmt(nodePlain, 0)} vs ${fmt(nodeSigned, 0)} µs), load generator ${fmt(clientPlain / clientSigned, 2)} (${fmt(clientPlain, 0)} vs ${fmt(clientSigned, 0)} µs), both ${fmt((nodePlain + clientPlain) / (nodeSigned + clientSigned), 2)}`,
);
await profiling("prepare", () => measure("prepare", "prepare alone (its share of signed)"));
const run = Date.now().toString(36);

// The V2 hash alone, over one prepared transaction with n input contracts.
const sample = await post("/v2/interactive-submission/prepare", { commands: [iou(ext.party)], commandId: `h-${run}`, actAs: [ext.party] }, ext.token);
const base = fromBinary(PreparedTransactionSchema, Buffer.from(sample.preparedTransaction, "base64"));
function withInputs(n: number): PreparedTransaction {
  const t = create(PreparedTransactionSchema, base);
  const node = t.transaction!.nodes[0].versionedNode.value!.nodeType;
  if (node.case !== "create") throw new Error(node.case);
  t.metadata!.inputContracts = Array.from({ length: n }, (_, i) =>
    create(Metadata_InputContractSchema, { contract: { case: "v1", value: { ...node.value, contractId: i.toString(16).padStart(66, "0") } }, createdAt: BigInt(i) }),
  );
  return t;
}
const hashTime = (t: PreparedTransaction) => {
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    preparedTransactionHash(t);
    best = Math.min(best, performance.now() - start);
  }
  return best;
};
const sha = (n: number) => {
  const start = performance.now();
  for (let i = 0; i < n; i++) createHash("sha256").update("x".repeat(64)).digest();
  return performance.now() - start;
};
hashTime(withInputs(100));
const times = [0, 200, 2000].map((n) => [n, hashTime(withInputs(n))] as const);
for (const [n, ms] of times) console.log(`V2 hash, ${String(n).padStart(4)} input contracts: ${fmt(ms * 1000, 0)} µs`);
console.log(`2000/200 input contracts: ${fmt(times[2][1] / times[1][1], 1)}x (linear ~10x); raw baseline: 2,200 bare SHA-256 of 64 bytes in ${fmt(sha(2200) * 1000, 0)} µs`);
await bs.stop();
