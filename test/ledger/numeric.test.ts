import { describe, expect, it } from "vitest";
import { Numeric, NumericError, NumericOverflowError } from "../../src/ledger/numeric.js";

describe("Numeric (Daml Numeric 10)", () => {
  it("parses and prints exactly at scale 10", () => {
    expect(Numeric.parse("1").toString()).toBe("1.0000000000");
    expect(Numeric.parse("-0.0000000001").toString()).toBe("-0.0000000001");
    expect(Numeric.parse("12.50").toString()).toBe("12.5000000000");
    expect(Numeric.parse(0.1).toString()).toBe("0.1000000000");
    expect(Numeric.parse("0.1").add(Numeric.parse("0.2")).toString()).toBe("0.3000000000");
  });

  it("prints every number of units as whole.fraction and parses it back, trailing zeros or not", () => {
    // A fixed linear congruential sequence: 2,000 values from 1 to 38 digits, either sign.
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 2000; i++) {
      let digits = "";
      for (let k = next() % 38; k >= 0; k--) digits += String(next() % 10);
      const units = BigInt(digits) * (next() % 2 === 0 ? 1n : -1n);
      const abs = units < 0n ? -units : units;
      const text = `${units < 0n ? "-" : ""}${abs / 10n ** 10n}.${(abs % 10n ** 10n).toString().padStart(10, "0")}`;
      expect(Numeric.fromUnits(units).toString()).toBe(text);
      expect(Numeric.parse(text).units).toBe(units);
      expect(Numeric.parse(`${text}${"0".repeat(i % 4)}`).units).toBe(units);
    }
  });

  it("rejects more than 10 decimals, junk and overflow", () => {
    expect(() => Numeric.parse("1.00000000001")).toThrow(NumericError);
    expect(() => Numeric.parse("1e5")).toThrow(NumericError);
    for (const lenient of [" 1", "1 ", "+1", "5.", ".5", "1e3", "1_000", "0x10", "- 1", "--1", "1.2.3", "\t1"]) {
      expect(() => Numeric.parse(lenient), lenient).toThrow(NumericError);
    }
    expect(() => Numeric.parse("")).toThrow(NumericError);
    expect(() => Numeric.parse("1".repeat(29))).toThrow(NumericError);
    expect(Numeric.parse("1".repeat(28)).toString()).toBe("1".repeat(28) + ".0000000000");
  });

  it("multiplies and divides with half-even rounding at scale 10", () => {
    expect(Numeric.parse("0.0000000001").mul(Numeric.parse("0.5")).toString()).toBe("0.0000000000");
    expect(Numeric.parse("0.0000000003").mul(Numeric.parse("0.5")).toString()).toBe("0.0000000002");
    expect(Numeric.parse("1").div(Numeric.parse("3")).toString()).toBe("0.3333333333");
    expect(Numeric.parse("2").div(Numeric.parse("3")).toString()).toBe("0.6666666667");
    expect(() => Numeric.parse("1").div(Numeric.zero)).toThrow(NumericError);
  });

  it("computes the holding fee rule of api-shapes §6 exactly", () => {
    // 0.0000190259 USD/round at 0.005 USD/CC = 0.0038051800 CC per round
    const rate = Numeric.parse("0.0000190259").div(Numeric.parse("0.005"));
    expect(rate.toString()).toBe("0.0038051800");
    const fee = rate.mulInt(1000n).min(Numeric.parse("100"));
    expect(fee.toString()).toBe("3.8051800000");
    expect(Numeric.parse("100").div(rate).ceilInt()).toBe(26280n);
  });

  it("overflows in ledger arithmetic as Daml does, but read-side sums never throw", () => {
    const max = Numeric.parse("9".repeat(28) + ".9999999999");
    const tiny = Numeric.parse("0.0000000001");
    expect(() => max.add(tiny)).toThrow(NumericOverflowError);
    expect(max.plus(tiny).toString()).toBe("1" + "0".repeat(28) + ".0000000000");
    expect(max.plus(tiny).isWithinRange()).toBe(false);
    expect(Numeric.total([max, max, max]).toString()).toBe("29999999999999999999999999999.9999999997");
    expect(max.neg().minus(max).toString()).toBe("-19999999999999999999999999999.9999999998");
    expect(Numeric.total([]).toString()).toBe("0.0000000000");
  });
});
