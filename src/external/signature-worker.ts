/**
 * Signature checks on one worker thread, posted to it once per event-loop turn. An Ed25519 check
 * is ~60 µs of CPU, too much for the event loop; on libuv's thread pool each check is its own
 * job, and on a loaded machine waking a pool thread per signature (and the loop again per
 * verdict) cost the event loop about 37 µs per execute in a profile, most of what the thread was
 * meant to save. Here a turn's checks cross to the worker in one message and come back in one.
 * If the worker cannot start or dies, checks fall back to the thread pool.
 */
import { verify } from "node:crypto";
import { Worker } from "node:worker_threads";
import { verifyArgsOf, type SigningKey } from "./signing-key.js";

// Plain JS run by `new Worker(..., { eval: true })`, so no loader (tsx, vitest) is needed there.
// Keys arrive as DER SubjectPublicKeyInfo and are parsed once per key while the cache has room.
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { createPublicKey, verify } = require("node:crypto");
const keys = new Map();
const keyOf = (spki) => {
  const id = Buffer.from(spki).toString("latin1");
  let key = keys.get(id);
  if (!key) {
    if (keys.size >= ${10_000}) keys.clear();
    key = createPublicKey({ key: Buffer.from(spki), format: "der", type: "spki" });
    keys.set(id, key);
  }
  return key;
};
parentPort.on("message", ({ id, checks }) => {
  const verdicts = checks.map((c) => {
    try {
      const key = keyOf(c.spki);
      return c.ecdsa ? verify("sha256", c.message, { key, dsaEncoding: "der" }, c.signature) : verify(null, c.message, key, c.signature);
    } catch {
      return false; // malformed DER that OpenSSL refuses outright does not verify
    }
  });
  parentPort.postMessage({ id, verdicts });
});
`;

interface Check {
  readonly spki: Uint8Array;
  readonly ecdsa: boolean;
  readonly message: Uint8Array;
  readonly signature: Uint8Array;
}

interface Waiting {
  readonly check: Check;
  readonly key: SigningKey;
  readonly resolve: (ok: boolean) => void;
}

/**
 * The bytes alone: posting a view copies its whole buffer, and a signature decoded from a request
 * is a view into the request's body (the prepared transaction included).
 */
function own(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

/** The thread pool's check, for when the worker is not there. */
function verifyOnPool(key: SigningKey, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      const [algorithm, input] = verifyArgsOf(key);
      verify(algorithm, message, input, signature, (e, ok) => resolve(!e && ok));
    } catch {
      resolve(false);
    }
  });
}

export class SignatureWorker {
  private worker: Worker | undefined;
  private broken = false;
  private closing = false;
  private queued: Waiting[] = [];
  private readonly inFlight = new Map<number, Waiting[]>();
  private nextId = 0;

  check(key: SigningKey, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
    if (this.broken) return verifyOnPool(key, message, signature);
    return new Promise((resolve) => {
      const check = { spki: own(key.spki), ecdsa: key.kind === "ecdsa-p256", message: own(message), signature: own(signature) };
      if (this.queued.push({ check, key, resolve }) === 1) setImmediate(() => this.post());
    });
  }

  /** Stops the worker; checks still waiting for it, and any later ones, run on the thread pool. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.closing = true;
    this.fail();
    await worker?.terminate();
  }

  private post(): void {
    const batch = this.queued;
    this.queued = [];
    const worker = this.started();
    if (!worker) return this.toPool(batch);
    const id = this.nextId++;
    this.inFlight.set(id, batch);
    if (this.inFlight.size === 1) worker.ref();
    worker.postMessage({ id, checks: batch.map((w) => w.check) });
  }

  private started(): Worker | undefined {
    if (this.worker || this.broken) return this.worker;
    try {
      const worker = new Worker(WORKER_SOURCE, { eval: true });
      worker.on("message", ({ id, verdicts }: { id: number; verdicts: boolean[] }) => {
        const batch = this.inFlight.get(id);
        this.inFlight.delete(id);
        if (this.inFlight.size === 0) worker.unref();
        batch?.forEach((w, i) => w.resolve(verdicts[i] === true));
      });
      worker.on("error", () => this.fail());
      worker.on("exit", () => this.fail());
      // Idle, it never keeps the process alive; while checks are out it does (see post).
      worker.unref();
      this.worker = worker;
    } catch {
      this.broken = true;
    }
    return this.worker;
  }

  /** The worker is gone: what it held is checked on the pool, and so is everything after. */
  private fail(): void {
    if (!this.broken && !this.closing) process.emitWarning("the signature worker stopped; signatures are checked on the thread pool from now on", { code: "CCWALLET_SIGNATURE_WORKER" });
    this.broken = true;
    this.worker = undefined;
    for (const batch of this.inFlight.values()) this.toPool(batch);
    this.inFlight.clear();
  }

  private toPool(batch: readonly Waiting[]): void {
    for (const w of batch) void verifyOnPool(w.key, w.check.message, w.check.signature).then(w.resolve);
  }
}

const shared = new SignatureWorker();

/** Whether `signature` over `message` verifies with `key`, checked off the event loop. Never rejects. */
export function verifyOffLoop(key: SigningKey, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
  return shared.check(key, message, signature);
}
