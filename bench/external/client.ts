/**
 * The client side of bench/external/run.ts, in its own process: closed-loop JSON callers that
 * create an Iou either with plain submit-and-wait or with prepare, an Ed25519 signature of the
 * returned hash (libsodium) and executeAndWait. Prints `window-start` and `window-end` lines at the
 * measured window's edges, then {latencies, errors, window: {ops, cpuMicros}} as JSON.
 */
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import sodium from "sodium-native";

const a = JSON.parse(process.argv[2]) as { http: string; mode: "plain" | "signed" | "prepare"; seconds: number; clients: number; party: string; token: string; key?: string; fingerprint?: string };
const IOU = "#ccwallet-demo:Ccwallet.Demo.Iou:Iou";
const iou = { CreateCommand: { templateId: IOU, createArguments: { issuer: a.party, owner: a.party, currency: "CC", amount: "1", observers: [] } } };
// libsodium's secret key from the PKCS#8 key's 32-byte seed (its last bytes): it signs in 12 µs on
// the bench machine where OpenSSL takes 20, and the client's CPU is taken from the node's 2 cores.
const secretKey = a.key ? seededSecretKey(Buffer.from(a.key, "base64").subarray(-32)) : undefined;

function seededSecretKey(seed: Buffer): Buffer {
  const publicKey = Buffer.alloc(32);
  const secret = Buffer.alloc(64);
  sodium.crypto_sign_seed_keypair(publicKey, secret, seed);
  return secret;
}

function signHash(hash: Buffer): Buffer {
  const signature = Buffer.alloc(64);
  sodium.crypto_sign_detached(signature, hash, secretKey!);
  return signature;
}
const run = `${a.mode}-${process.pid}-${Date.now().toString(36)}`;

// node:http with keep-alive rather than fetch: undici's fetch costs the client more CPU per call
// than the node spends serving it, and on 2 cores the client's CPU is taken from the node.
const agent = new Agent({ keepAlive: true, maxSockets: a.clients });
const target = new URL(a.http);

function post(path: string, body: unknown): Promise<any> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, host: target.hostname, port: target.port, path, method: "POST", headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json", "content-length": payload.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if (res.statusCode !== 200) reject(new Error(`POST ${path}: HTTP ${res.statusCode} ${text.slice(0, 300)}`));
          else resolve(JSON.parse(text));
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

async function plain(n: number): Promise<void> {
  await post("/v2/commands/submit-and-wait", { commands: [iou], commandId: `${run}-${n}`, actAs: [a.party] });
}

async function signed(n: number): Promise<void> {
  const p = await post("/v2/interactive-submission/prepare", { commands: [iou], commandId: `${run}-${n}`, actAs: [a.party] });
  const signature = signHash(Buffer.from(p.preparedTransactionHash, "base64")).toString("base64");
  const sig = { format: "SIGNATURE_FORMAT_CONCAT", signature, signedBy: a.fingerprint, signingAlgorithmSpec: "SIGNING_ALGORITHM_SPEC_ED25519" };
  await post("/v2/interactive-submission/executeAndWait", {
    preparedTransaction: p.preparedTransaction,
    partySignatures: { signatures: [{ party: a.party, signatures: [sig] }] },
    submissionId: `${run}-x${n}`,
    hashingSchemeVersion: "HASHING_SCHEME_VERSION_V2",
  });
}

async function prepareOnly(n: number): Promise<void> {
  await post("/v2/interactive-submission/prepare", { commands: [iou], commandId: `${run}-${n}`, actAs: [a.party] });
}

const op = { plain, signed, prepare: prepareOnly }[a.mode];
const from = performance.now() + 750;
const to = from + a.seconds * 1000;
const latencies: number[] = [];
let errors = 0;
let n = 0;
// The window's own CPU and operations (this process's start-up is not the load's), and a line at
// each edge so the bench reads the node's CPU over the same window.
const window = { ops: 0, cpuMicros: 0 };
let atStart = { ops: 0, cpu: process.cpuUsage() };
setTimeout(() => {
  atStart = { ops: n, cpu: process.cpuUsage() };
  process.stdout.write("window-start\n");
}, from - performance.now());
setTimeout(() => {
  const cpu = process.cpuUsage(atStart.cpu);
  Object.assign(window, { ops: n - atStart.ops, cpuMicros: cpu.user + cpu.system });
  process.stdout.write("window-end\n");
}, to - performance.now());
await Promise.all(
  Array.from({ length: a.clients }, async () => {
    while (performance.now() < to) {
      const start = performance.now();
      try {
        await op(n++);
        const end = performance.now();
        if (start >= from && end <= to) latencies.push(end - start);
      } catch (e) {
        if (errors++ === 0) console.error((e as Error).message);
      }
    }
  }),
);
process.stdout.write(JSON.stringify({ latencies, errors, window }) + "\n");
