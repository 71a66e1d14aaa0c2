/**
 * Signature checks on one worker thread, posted to it once per event-loop turn. An Ed25519 check
 * is tens of µs of CPU, too much for the event loop; on libuv's thread pool each check is its own
 * job, and on a loaded machine waking a pool thread per signature (and the loop again per
 * verdict) cost the event loop about 37 µs per execute in a profile, most of what the thread was
 * meant to save. Here a turn's checks cross to the worker in one message and come back in one.
 * If the worker cannot start or dies, checks fall back to the thread pool.
 *
 * The worker checks Ed25519 with libsodium (sodium-native) when it loads: 36 µs a check where
 * OpenSSL 3 takes 60 on the bench machine, and on 2 cores every µs of a signed execute is taken
 * from the node. libsodium also refuses a small-order R, which OpenSSL accepts; node:crypto's
 * checks refuse it too (signature.ts), so both libraries accept the same signatures.
 */
import { verify } from "node:crypto";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { hasIdentityR } from "./ed25519-point.js";
import { verifyArgsOf, type SigningKey } from "./signing-key.js";

/** sodium-native's entry, for the worker to require (it has no module resolution of its own). */
function sodiumPath(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve("sodium-native");
  } catch {
    return undefined;
  }
}

// Plain JS run by `new Worker(..., { eval: true })`, so no loader (tsx, vitest) is needed there.
// Keys arrive as DER SubjectPublicKeyInfo; an Ed25519 one ends in its raw 32 bytes (libsodium's
// form), and OpenSSL's are parsed once per key while the cache has room.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { createPublicKey, verify } = require("node:crypto");
let sodium;
try {
  sodium = workerData.sodium && require(workerData.sodium);
} catch {
  sodium = undefined; // no build for this platform: OpenSSL checks them all
}
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
const check = (c) => {
  if (c.ecdsa) return verify("sha256", c.message, { key: keyOf(c.spki), dsaEncoding: "der" }, c.signature);
  if (sodium) return sodium.crypto_sign_verify_detached(c.signature, c.message, c.spki.subarray(c.spki.length - 32));
  return !c.identityR && verify(null, c.message, keyOf(c.spki), c.signature);
};
parentPort.on("message", ({ id, checks }) => {
  const verdicts = checks.map((c) => {
    try {
      return check(c);
    } catch {
      return false; // malformed input the library refuses outright does not verify
    }
  });
  parentPort.postMessage({ id, verdicts });
});
`;

interface Check {
  readonly spki: Uint8Array;
  readonly ecdsa: boolean;
  /** An Ed25519 signature whose R is the identity: the worker's OpenSSL fallback refuses it. */
  readonly identityR: boolean;
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
      if (key.kind === "ed25519" && hasIdentityR(signature)) return resolve(false);
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
      const ecdsa = key.kind === "ecdsa-p256";
      const check = { spki: own(key.spki), ecdsa, identityR: !ecdsa && hasIdentityR(signature), message: own(message), signature: own(signature) };
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
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { sodium: sodiumPath() } });
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
