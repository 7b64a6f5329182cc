// WatchListings' answer: success only when every link was taken; otherwise the message names what was not.
import { describe, expect, it } from "vitest";
import { watchResultText } from "./watch-result.ts";

describe("watchResultText", () => {
  it("counts what was added and names the links not recognised", () => {
    expect(watchResultText({ added: 2, existing: 1, invalid: [] })).toBe("新增 2 个，1 个已在库中，将重新读取");
    expect(watchResultText({ added: 1, existing: 0, invalid: ["a", "b", "c", "d"] })).toBe("新增 1 个，4 个无法识别：a、b、c 等");
  });
});
