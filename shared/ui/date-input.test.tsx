// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { DateInput, monthDays, parseDayText, toDayText } from "./date-input.tsx";

afterEach(cleanup);

describe("day text", () => {
  it("reads real days only, padding short months and days", () => {
    expect(parseDayText("2024-5-1")).toBe("2024-05-01");
    expect(parseDayText("2024/05/31")).toBe("2024-05-31");
    expect(parseDayText("2024-02-30")).toBeNull();
    expect(parseDayText("05/01/2024")).toBeNull();
    expect(toDayText(new Date(2024, 0, 9))).toBe("2024-01-09");
  });

  it("lays a month out in six weeks from Monday", () => {
    const days = monthDays(2024, 4); // May 2024 starts on a Wednesday
    expect(days).toHaveLength(42);
    expect(toDayText(days[0])).toBe("2024-04-29");
    expect(toDayText(days[2])).toBe("2024-05-01");
  });
});

function Field({ min }: { min?: string }) {
  const [value, setValue] = useState("2024-05-10");
  return (
    <>
      <DateInput value={value} onChange={setValue} min={min} aria-label="日期" data-testid="d" />
      <output data-testid="value">{value}</output>
    </>
  );
}

describe("DateInput", () => {
  it("shows yyyy-mm-dd, applies a typed day at once and puts back an unfinished one on blur", () => {
    render(<Field min="2024-05-01" />);
    const box = screen.getByTestId("d") as HTMLInputElement;
    expect(box.value).toBe("2024-05-10");
    fireEvent.change(box, { target: { value: "2024-05-2" } });
    expect(screen.getByTestId("value").textContent).toBe("2024-05-02");
    fireEvent.change(box, { target: { value: "2024-04-30" } });
    expect(box.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByTestId("value").textContent).toBe("2024-05-02");
    fireEvent.blur(box);
    expect(box.value).toBe("2024-05-02");
    fireEvent.change(box, { target: { value: "" } });
    expect(screen.getByTestId("value").textContent).toBe("");
  });

  it("picks a day in the calendar (Chinese month and weekdays), days before min disabled", async () => {
    render(<Field min="2024-05-05" />);
    await act(async () => fireEvent.click(screen.getByTestId("d-calendar")));
    const panel = screen.getByTestId("d-calendar-panel");
    expect(panel.textContent).toContain("2024年5月");
    expect(panel.textContent).toContain("一二三四五六日");
    expect((panel.querySelector("[data-day='2024-05-04']") as HTMLButtonElement).disabled).toBe(true);
    await act(async () => fireEvent.click(panel.querySelector("[data-day='2024-05-20']")!));
    expect(screen.getByTestId("value").textContent).toBe("2024-05-20");
    expect(screen.queryByTestId("d-calendar-panel")).toBeNull();
  });
});
