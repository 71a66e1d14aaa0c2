/**
 * Reads an uploaded DAR: a zip with `META-INF/MANIFEST.MF` and one or more `.dalf` Daml-LF
 * archives. fflate does the unzipping (see docs/decisions.md); what it is asked to inflate is
 * bounded first by the sizes the central directory declares, and an entry inflating past its
 * declared size is cut there (fflate writes into a buffer of exactly that size) and then fails
 * its hash check, so a zip bomb costs at most the caps below.
 */
import { unzipSync, type UnzipFileInfo } from "fflate";
import { errors, LedgerError } from "../ledger/errors.js";
import { decodeArchive } from "./daml-lf-archive.js";

export const MANIFEST = "META-INF/MANIFEST.MF";

export interface DarLimits {
  /** Entries of the zip (sources and interface files count too). */
  readonly maxEntries: number;
  /** Total declared uncompressed size of the entries inflated (the manifest and the `.dalf`s). */
  readonly maxUncompressedBytes: number;
}

export const DEFAULT_DAR_LIMITS: DarLimits = { maxEntries: 10_000, maxUncompressedBytes: 256 * 1024 * 1024 };

export interface DarPackage {
  readonly packageId: string;
  readonly payload: Uint8Array;
  /** From the entry's name (`<name>-<version>-<package id>.dalf`, as `daml build` writes it); "" if it does not say. */
  readonly name: string;
  readonly version: string;
}

export interface Dar {
  /** The main package (the manifest's `Main-Dalf`, else the first archive) first, each id once. */
  readonly packages: readonly DarPackage[];
}

const wanted = (name: string) => name === MANIFEST || name.endsWith(".dalf");

/** The entries worth inflating, within the limits; ZIP_BOMB past them, INVALID_DAR if not a zip. */
function unzipDar(bytes: Uint8Array, limits: DarLimits): Record<string, Uint8Array> {
  let entries = 0;
  let declared = 0;
  const filter = (file: UnzipFileInfo) => {
    if (++entries > limits.maxEntries) throw errors.zipBomb(`more than ${limits.maxEntries} entries`);
    if (!wanted(file.name)) return false;
    if (file.name.includes("..") || file.name.startsWith("/")) throw errors.invalidZipEntry(file.name);
    declared += file.originalSize;
    if (declared > limits.maxUncompressedBytes) throw errors.zipBomb(`more than ${limits.maxUncompressedBytes} bytes uncompressed`);
    return true;
  };
  try {
    return unzipSync(bytes, { filter });
  } catch (e) {
    if (e instanceof LedgerError) throw e;
    throw errors.invalidDar((e as Error).message);
  }
}

/** The manifest's attributes; continuation lines (a leading space) join the line before. */
export function parseManifest(text: string): Map<string, string> {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const joined: string[] = [];
  for (const line of lines) {
    if (line.startsWith(" ") && joined.length > 0) joined[joined.length - 1] += line.slice(1);
    else if (line !== "") joined.push(line);
  }
  const attributes = new Map<string, string>();
  for (const line of joined) {
    const colon = line.indexOf(":");
    if (colon > 0) attributes.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return attributes;
}

function nameAndVersion(entry: string): { name: string; version: string } {
  const base = entry.slice(entry.lastIndexOf("/") + 1);
  const m = /^(.+)-(\d[0-9A-Za-z.]*)-[0-9a-f]{64}\.dalf$/.exec(base);
  return m ? { name: m[1], version: m[2] } : { name: "", version: "" };
}

export function readDar(bytes: Uint8Array, limits: DarLimits = DEFAULT_DAR_LIMITS): Dar {
  const files = unzipDar(bytes, limits);
  const manifest = files[MANIFEST];
  if (!manifest) throw errors.darParseError(`Missing ${MANIFEST}`);
  const main = parseManifest(new TextDecoder().decode(manifest)).get("Main-Dalf");
  const dalfs = Object.keys(files).filter((n) => n.endsWith(".dalf"));
  if (dalfs.length === 0) throw errors.darParseError("The DAR holds no .dalf archive");
  if (main !== undefined && !dalfs.includes(main)) throw errors.darParseError(`Main-Dalf ${main} is not in the DAR`);
  const ordered = main === undefined ? dalfs : [main, ...dalfs.filter((n) => n !== main)];
  const seen = new Set<string>();
  const packages: DarPackage[] = [];
  for (const entry of ordered) {
    const archive = decodeArchive(files[entry], entry);
    if (seen.has(archive.hash)) continue;
    seen.add(archive.hash);
    packages.push({ packageId: archive.hash, payload: archive.payload, ...nameAndVersion(entry) });
  }
  return { packages };
}
