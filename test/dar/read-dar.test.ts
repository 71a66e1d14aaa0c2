/** The DAR reader alone: manifest, archives, hash checks and the zip-bomb limits (pure, no server). */
import { describe, expect, it } from "vitest";
import { readDar, parseManifest } from "../../src/dar/index.js";
import { LedgerError } from "../../src/ledger/errors.js";
import { testDar, testPackage, testZip } from "../support/dar-builder.js";

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof LedgerError) return e.code;
    throw e;
  }
  throw new Error("did not throw");
}

describe("readDar", () => {
  it("reads the main package first, then the dependencies, each with its name and version", () => {
    const main = testPackage();
    const dep = testPackage();
    const dar = readDar(testDar([main, dep], "my-model", "2.1.0"));
    expect(dar.packages.map((p) => p.packageId)).toEqual([main.packageId, dep.packageId]);
    expect(dar.packages[0]).toMatchObject({ name: "my-model", version: "2.1.0" });
    expect(Buffer.from(dar.packages[0].payload).equals(Buffer.from(main.payload))).toBe(true);
  });

  it("refuses what is not a zip (INVALID_DAR), a zip without manifest or archives and a wrong hash (DAR_PARSE_ERROR)", () => {
    expect(codeOf(() => readDar(new TextEncoder().encode("not a zip at all, not even close")))).toBe("INVALID_DAR");
    expect(codeOf(() => readDar(testZip({ "a.dalf": testPackage().archive })))).toBe("DAR_PARSE_ERROR");
    expect(codeOf(() => readDar(testZip({ "META-INF/MANIFEST.MF": new Uint8Array([65]) })))).toBe("DAR_PARSE_ERROR");
    expect(codeOf(() => readDar(testDar([testPackage({ hash: "ab".repeat(32) })])))).toBe("DAR_PARSE_ERROR");
    const garbage = testZip({ "META-INF/MANIFEST.MF": new Uint8Array([65]), "x.dalf": new Uint8Array([0xff, 0xff, 0xff]) });
    expect(codeOf(() => readDar(garbage))).toBe("DAR_PARSE_ERROR");
  });

  it("refuses too many entries and too much uncompressed data (ZIP_BOMB) before inflating", () => {
    const dar = testDar([testPackage(), testPackage()]);
    expect(codeOf(() => readDar(dar, { maxEntries: 2, maxUncompressedBytes: 1 << 20 }))).toBe("ZIP_BOMB");
    const zeros = testZip({ "META-INF/MANIFEST.MF": new Uint8Array(10), "big.dalf": new Uint8Array(1 << 20) });
    expect(zeros.length).toBeLessThan(10_000);
    expect(codeOf(() => readDar(zeros, { maxEntries: 10, maxUncompressedBytes: 1 << 19 }))).toBe("ZIP_BOMB");
  });

  it("joins the manifest's continuation lines", () => {
    const m = parseManifest("Main-Dalf: a/very-long-\r\n name.dalf\r\nSdk-Version: 3.4.0\r\n");
    expect(m.get("Main-Dalf")).toBe("a/very-long-name.dalf");
    expect(m.get("Sdk-Version")).toBe("3.4.0");
  });
});
