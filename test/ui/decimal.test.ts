/** The UI's exact decimal strings (B.4): grouping, no rounding, exact products, half-even division. */
import { describe, expect, it } from "vitest";
import { addDecimal, ccToUsd, divDecimal, formatCc, formatDecimal, formatUsd, mulDecimal } from "../../web/src/decimal.js";

describe("the UI's decimal formatter", () => {
  it("groups thousands, keeps every significant digit and drops trailing zeros", () => {
    expect(formatDecimal("1234567.8900000000")).toBe("1,234,567.89");
    expect(formatDecimal("0.0000000001")).toBe("0.0000000001");
    expect(formatDecimal("-1000.5")).toBe("-1,000.5");
    expect(formatDecimal("+1000.5000000000")).toBe("+1,000.5");
    expect(formatDecimal("100.0000000000")).toBe("100");
    expect(formatCc("94.0000000000")).toBe("94 CC");
    expect(formatCc(undefined)).toBe("--.-- CC");
  });

  it("multiplies exactly where floats would not", () => {
    expect(mulDecimal("0.1", "0.2")).toBe("0.02");
    expect(ccToUsd("94.0000000000", "0.0050000000")).toBe("0.47");
    expect(formatUsd(ccToUsd("12345678.9012345678", "0.0050000000"))).toBe("61,728.394506172839 USD");
    expect(mulDecimal("-2.5", "3")).toBe("-7.5");
  });

  it("adds exactly and divides half-even at scale 10", () => {
    expect(addDecimal("0.1", "0.2")).toBe("0.3");
    expect(addDecimal("-2.5913242400", "2.5")).toBe("-0.09132424");
    expect(divDecimal("1", "3")).toBe("0.3333333333");
    expect(divDecimal("2", "3")).toBe("0.6666666667");
    expect(divDecimal("0.00000000005", "1")).toBe("0");
    expect(divDecimal("0.00000000015", "1")).toBe("0.0000000002");
    expect(divDecimal("1.0000000000", "0.0050000000")).toBe("200");
  });
});
