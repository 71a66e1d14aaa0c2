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

/** Check flags: a P-256 key; an Ed25519 signature whose R is the identity (the OpenSSL fallback refuses it). */
const ECDSA = 1;
const IDENTITY_R = 2;

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
const check = (flags, spki, message, signature) => {
  if (flags & ${ECDSA}) return verify("sha256", message, { key: keyOf(spki), dsaEncoding: "der" }, signature);
  // libsodium reads the first 64 bytes of a longer signature; an Ed25519 signature is exactly 64.
  if (sodium) return signature.length === 64 && sodium.crypto_sign_verify_detached(signature, message, spki.subarray(spki.length - 32));
  return !(flags & ${IDENTITY_R}) && verify(null, message, keyOf(spki), signature);
};
parentPort.on("message", (buffer) => {
  const batch = new Uint8Array(buffer);
  const view = new DataView(buffer);
  let at = 4;
  const field = () => {
    const n = view.getUint32(at, true);
    const bytes = batch.subarray(at + 4, at + 4 + n);
    at += 4 + n;
    return bytes;
  };
  const verdicts = [];
  while (at < batch.length) {
    const flags = batch[at++];
    const spki = field(), message = field(), signature = field();
    let ok;
    try {
      ok = check(flags, spki, message, signature);
    } catch {
      ok = false; // malformed input the library refuses outright does not verify
    }
    verdicts.push(ok ? 1 : 0);
  }
  const answer = new Uint8Array(4 + verdicts.length);
  answer.set(batch.subarray(0, 4));
  answer.set(verdicts, 4);
  parentPort.postMessage(answer, [answer.buffer]);
});
`;

interface Waiting {
  readonly key: SigningKey;
  readonly message: Uint8Array;
  readonly signature: Uint8Array;
  readonly resolve: (ok: boolean) => void;
}

/**
 * A turn's checks as one buffer, moved (not copied) to the worker: an id, then per check its flags
 * and three length-prefixed fields. Cloning objects of typed arrays cost the loop ~5 µs a post and
 * the worker as much again, an array buffer allocated per field on each side. The bytes checked
 * are the ones copied here, at the end of the turn that asked, and the flags are read from them.
 */
function packed(id: number, checks: readonly Waiting[]): ArrayBuffer {
  let size = 4;
  for (const c of checks) size += 13 + c.key.spki.length + c.message.length + c.signature.length;
  const buffer = new ArrayBuffer(size);
  const batch = new Uint8Array(buffer);
  const view = new DataView(buffer);
  view.setUint32(0, id, true);
  let at = 4;
  const field = (bytes: Uint8Array) => {
    view.setUint32(at, bytes.length, true);
    batch.set(bytes, at + 4);
    at += 4 + bytes.length;
  };
  for (const c of checks) {
    batch[at++] = c.key.kind === "ecdsa-p256" ? ECDSA : hasIdentityR(c.signature) ? IDENTITY_R : 0;
    field(c.key.spki);
    field(c.message);
    field(c.signature);
  }
  return buffer;
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

  /** `sodium`: the module the worker checks Ed25519 with; with null, OpenSSL checks them all. */
  constructor(private readonly sodium: string | null = sodiumPath() ?? null) {}

  check(key: SigningKey, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
    if (this.broken) return verifyOnPool(key, message, signature);
    return new Promise((resolve) => {
      if (this.queued.push({ key, message, signature, resolve }) === 1) setImmediate(() => this.post());
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
    const id = this.nextId;
    this.nextId = (id + 1) >>> 0; // the id crosses as a uint32
    this.inFlight.set(id, batch);
    if (this.inFlight.size === 1) worker.ref();
    const buffer = packed(id, batch);
    worker.postMessage(buffer, [buffer]);
  }

  private started(): Worker | undefined {
    if (this.worker || this.broken) return this.worker;
    try {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { sodium: this.sodium } });
      worker.on("message", (answer: Uint8Array) => {
        const id = new DataView(answer.buffer, answer.byteOffset, answer.byteLength).getUint32(0, true);
        const batch = this.inFlight.get(id);
        this.inFlight.delete(id);
        if (this.inFlight.size === 0) worker.unref();
        batch?.forEach((w, i) => w.resolve(answer[4 + i] === 1));
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
    for (const w of batch) void verifyOnPool(w.key, w.message, w.signature).then(w.resolve);
  }
}

const shared = new SignatureWorker();

/** Whether `signature` over `message` verifies with `key`, checked off the event loop. Never rejects. */
export function verifyOffLoop(key: SigningKey, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
  return shared.check(key, message, signature);
}
