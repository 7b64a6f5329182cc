// @vitest-environment happy-dom
// The refresh control of a list that follows its running work: the note says how often the list asks again only while
// it follows, and the button asks now (and waits while a fetch runs).
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { FollowingRefresh } from "./following-refresh.tsx";

afterEach(cleanup);

describe("FollowingRefresh", () => {
  it("shows 每 N 秒自动刷新 only while following, and refreshes on click", () => {
    let asked = 0;
    const list = { isFetching: false, refetch: () => asked++ };
    const { rerender } = render(<FollowingRefresh list={list} following={false} pollMs={3000} testId="t" />);
    expect(screen.queryByTestId("t-following")).toBeNull();
    fireEvent.click(screen.getByTestId("t-refresh"));
    expect(asked).toBe(1);

    rerender(<FollowingRefresh list={list} following pollMs={3000} testId="t" />);
    expect(screen.getByTestId("t-following").textContent).toBe("每 3 秒自动刷新");

    rerender(<FollowingRefresh list={{ ...list, isFetching: true }} following pollMs={3000} testId="t" />);
    expect((screen.getByTestId("t-refresh") as HTMLButtonElement).disabled).toBe(true);
  });
});
