// Names are cut to the server's limits in bytes of UTF-8, never inside a character.
import { describe, expect, it } from "vitest";

import { fitUtf8 } from "../src/ui/identity";

describe("fitUtf8", () => {
  it("keeps text that fits", () => {
    expect(fitUtf8("Ada", 64)).toBe("Ada");
    expect(fitUtf8("", 64)).toBe("");
  });
  it("cuts by bytes, not by characters", () => {
    expect(fitUtf8("a".repeat(70), 64)).toBe("a".repeat(64));
    expect(fitUtf8("東".repeat(30), 64)).toBe("東".repeat(21)); // 3 bytes each
  });
  it("never splits a character", () => {
    expect(fitUtf8("ab🏰", 5)).toBe("ab"); // the castle is 4 bytes
    expect(fitUtf8("ab🏰", 6)).toBe("ab🏰");
  });
});
