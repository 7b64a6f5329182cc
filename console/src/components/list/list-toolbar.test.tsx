// @vitest-environment happy-dom
// The list toolbar as a user meets it: the declared filters in order (absent ones skipped), typed text reaching the
// list, a facet choice clearing what depends on it, the date range, the 更多筛选 row and the reset button.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter, useLocation } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ListToolbar, type ListFilters } from "./list-toolbar.tsx";
import { ownerFilter } from "./owner-filter.ts";
import { choiceParam, dateParam, decimalParam, pageParam, pageSizeParam, textParam } from "./url-params.ts";
import { useListUrlState, useReplaceSearchParams } from "./use-list-url-state.ts";

afterEach(cleanup);

const schema = z.object({
  q: textParam(50),
  site: choiceParam([1, 2]),
  cate: textParam(20),
  from: dateParam(),
  to: dateParam(),
  pmin: decimalParam(),
  pmax: decimalParam(),
  sort: choiceParam(["name asc"], ""),
  page: pageParam(),
  size: pageSizeParam([20, 50], 20),
});

const filters: ListFilters = [
  { kind: "search", key: "q", label: "搜索", maxLength: 50, testId: "t-search" },
  {
    kind: "facet",
    key: "site",
    label: "站点",
    all: "全部站点",
    options: [
      { value: 1, label: "墨西哥" },
      { value: 2, label: "巴西" },
    ],
    clears: ["cate"],
    testId: "t-site",
  },
  ownerFilter(null, { label: "所属账号", all: "全部账号", testId: "t-user" }),
  { kind: "date-range", from: "from", to: "to", testId: "t-date" },
  {
    kind: "facet",
    key: "sort",
    label: "排序",
    options: [
      { value: "", label: "默认排序" },
      { value: "name asc", label: "名称" },
    ],
    testId: "t-sort",
  },
];
const more: ListFilters = [
  {
    kind: "number-range",
    label: "价格范围",
    min: { key: "pmin", placeholder: "最低价", testId: "t-pmin" },
    max: { key: "pmax", placeholder: "最高价", testId: "t-pmax" },
    maxLength: 16,
    className: "w-24",
  },
];

function Screen() {
  const list = useListUrlState(schema, useReplaceSearchParams());
  const location = useLocation();
  return (
    <>
      <ListToolbar
        filters={filters}
        more={{ filters: more, buttonTestId: "t-more", rowTestId: "t-more-row" }}
        {...list.toolbar}
        resetTestId="t-reset"
        testId="t-filters"
      >
        <button type="button">其它</button>
      </ListToolbar>
      <output data-testid="where">{location.search}</output>
    </>
  );
}

const open = (url: string) =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <Screen />
    </MemoryRouter>,
  );
const where = () => screen.getByTestId("where").textContent;

describe("ListToolbar", () => {
  it("renders the declared filters, skips absent ones and puts the screen's controls last", () => {
    open("/list");
    expect(screen.getByTestId("t-search")).toBeTruthy();
    expect(screen.getByTestId("t-site").textContent).toBe("全部站点");
    expect(screen.queryByTestId("t-user")).toBeNull();
    expect(screen.getByTestId("t-date-start")).toBeTruthy();
    expect(screen.getByText("其它")).toBeTruthy();
    expect((screen.getByTestId("t-reset") as HTMLButtonElement).disabled).toBe(true);
    // The second row stays closed while none of its filters is set.
    expect(screen.queryByTestId("t-more-row")).toBeNull();
  });

  it("applies typed text on Enter and goes back to page 1", () => {
    open("/list?page=3");
    const input = screen.getByTestId("t-search");
    fireEvent.change(input, { target: { value: " 耳机 " } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(where()).toBe(`?q=${encodeURIComponent("耳机")}`);
    expect((screen.getByTestId("t-reset") as HTMLButtonElement).disabled).toBe(false);
  });

  it("shows a chosen facet and clears what depends on it when it changes", async () => {
    open("/list?site=1&cate=MLM1");
    const trigger = screen.getByTestId("t-site");
    expect(trigger.textContent).toBe("墨西哥");
    await act(async () => fireEvent.keyDown(trigger, { key: "Enter" }));
    await act(async () => fireEvent.click(screen.getByTestId("t-site-2")));
    expect(where()).toBe("?site=2");
  });

  it("offers the default order (an empty value) as a choice of its own", async () => {
    open("/list?sort=name+asc");
    const trigger = screen.getByTestId("t-sort");
    expect(trigger.textContent).toBe("名称");
    await act(async () => fireEvent.keyDown(trigger, { key: "Enter" }));
    await act(async () => fireEvent.click(screen.getByTestId("t-sort-default")));
    expect(where()).toBe("");
    expect(screen.getByTestId("t-sort").textContent).toBe("默认排序");
  });

  it("sets both ends of the date range, refusing a start after the end", () => {
    open("/list?to=2024-05-10");
    fireEvent.change(screen.getByTestId("t-date-start"), { target: { value: "2024-05-01" } });
    expect(where()).toBe("?to=2024-05-10&from=2024-05-01");
    fireEvent.change(screen.getByTestId("t-date-start"), { target: { value: "2024-06-01" } });
    expect(where()).toBe("?to=2024-05-10&from=2024-05-01");
  });

  it("opens the second row by itself when a link sets one of its filters, and resets everything but the page size", () => {
    open("/list?pmin=10&q=a&size=50");
    expect(screen.getByTestId("t-more-row")).toBeTruthy();
    expect((screen.getByTestId("t-pmin") as HTMLInputElement).value).toBe("10");
    fireEvent.click(screen.getByTestId("t-more"));
    expect(screen.queryByTestId("t-more-row")).toBeNull();
    fireEvent.click(screen.getByTestId("t-reset"));
    expect(where()).toBe("?size=50");
  });

  it("reads a number range end on Enter", () => {
    open("/list");
    fireEvent.click(screen.getByTestId("t-more"));
    const max = screen.getByTestId("t-pmax");
    fireEvent.change(max, { target: { value: "99.5" } });
    fireEvent.keyDown(max, { key: "Enter" });
    expect(where()).toBe("?pmax=99.5");
  });
});
