/**
 * Test DARs built by hand: a Daml-LF `Archive` envelope encoded field by field (1: hash_function,
 * 3: payload, 4: hash) and zipped with fflate's zipSync next to a manifest, as `daml build` lays
 * them out. The payload is arbitrary bytes: the participant never interprets it.
 */
import { createHash, randomBytes } from "node:crypto";
import { zipSync, type Zippable } from "fflate";

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

function lengthDelimited(field: number, bytes: Uint8Array): number[] {
  return [...varint((field << 3) | 2), ...varint(bytes.length), ...bytes];
}

export interface TestPackage {
  readonly packageId: string;
  readonly payload: Uint8Array;
  readonly archive: Uint8Array;
}

/** An archive of `payload` (random if not given); `hash` overrides the (correct) package id. */
export function testPackage(options: { payload?: Uint8Array; hash?: string } = {}): TestPackage {
  const payload = options.payload ?? new Uint8Array(randomBytes(64));
  const packageId = createHash("sha256").update(payload).digest("hex");
  const hash = new TextEncoder().encode(options.hash ?? packageId);
  const archive = new Uint8Array([0x08, 0x00, ...lengthDelimited(3, payload), ...lengthDelimited(4, hash)]);
  return { packageId, payload, archive };
}

/** A DAR of these packages (the first is the main one), as `name-version` entries. */
export function testDar(packages: readonly TestPackage[], name = "test-dar", version = "1.0.0"): Uint8Array {
  const dir = `${name}-${version}-${packages[0].packageId}`;
  const entries: Zippable = {};
  const paths = packages.map((p, i) => (i === 0 ? `${dir}/${dir}.dalf` : `${dir}/dep-${i}-1.0.0-${p.packageId}.dalf`));
  packages.forEach((p, i) => (entries[paths[i]] = p.archive));
  const manifest = `Manifest-Version: 1.0\r\nCreated-By: ccwallet tests\r\nMain-Dalf: ${paths[0]}\r\nDalfs: ${paths.join(", ")}\r\nFormat: daml-lf\r\nEncryption: non-encrypted\r\n`;
  entries["META-INF/MANIFEST.MF"] = new TextEncoder().encode(manifest);
  return zipSync(entries);
}

/** A zip without the DAR's shape: `entries` as given. */
export function testZip(entries: Record<string, Uint8Array>): Uint8Array {
  return zipSync(entries);
}
