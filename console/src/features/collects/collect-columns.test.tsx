// @vitest-environment happy-dom
// The collection list's status cell: a collection the extractor could not read whole is marked, naming what is missing.
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { CollectListItem } from "#shared/contract/collect.ts";
import { CollectStatus } from "#shared/contract/enums.ts";
import { collectColumns } from "./collect-columns.tsx";

const row = (over: Partial<CollectListItem> = {}): CollectListItem => ({
  id: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  platformType: 1,
  status: CollectStatus.Collected,
  country: null,
  image: null,
  images: [],
  sourceUrl: "https://detail.1688.com/offer/756012345603.html",
  currency: "CNY",
  price: null,
  priceMax: null,
  title: { zh: "保温饭盒" },
  creationTime: "2025-03-02T10:00:00Z",
  owner: null,
  userId: "3fa85f64-5717-4562-b3fc-2c963f66afa7",
  labelId: null,
  labelName: null,
  infringementWord: null,
  incompleteFields: [],
  logs: [],
  sku: "756012345603",
  ...over,
});

const statusCell = (r: CollectListItem) => {
  const column = collectColumns({ onEdit: () => {}, onDelete: () => {}, showOwner: false }).find((c) => c.id === "status")!;
  render(<>{column.cell(r, 0)}</>);
};

describe("collection list status", () => {
  afterEach(cleanup);

  it("marks a partial collection with what did not come out", () => {
    statusCell(row({ incompleteFields: ["price", "variants"] }));
    const mark = screen.getByTestId("collects-incomplete");
    expect(mark.textContent).toBe("部分字段未采集");
    expect(mark.getAttribute("title")).toBe("部分字段未采集: 价格、规格");
  });

  it("leaves a whole collection unmarked", () => {
    statusCell(row());
    expect(screen.queryByTestId("collects-incomplete")).toBeNull();
  });
});
