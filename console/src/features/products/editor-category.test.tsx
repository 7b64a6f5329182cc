// @vitest-environment happy-dom
// 推荐类目's answer as the seller reads it: which way the categories were found, names in Chinese first with the site's
// beside, the reason when nothing could be predicted, and 使用 only on a category that can be chosen.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PredictedCategory, PredictMeliCategoryResult } from "#shared/contract/category.ts";
import { CategoryPredictions } from "../../components/category-predictions.tsx";

afterEach(cleanup);

const item = (cateId: string, fullName: string, fullZh: string | null, extra: Partial<PredictedCategory> = {}): PredictedCategory => ({
  cateId,
  name: fullName.split(" > ").pop()!,
  fullName,
  fullZh,
  domainId: "",
  domainName: "",
  known: true,
  selectable: true,
  attributes: [],
  ...extra,
});

const answer = (extra: Partial<PredictMeliCategoryResult>): PredictMeliCategoryResult => ({
  title: "三星手机壳",
  site: 1,
  method: "direct",
  translatedTitle: null,
  note: null,
  items: [],
  ...extra,
});

describe("CategoryPredictions", () => {
  it("says the Chinese names were matched, shows them first, and takes a choosable one", () => {
    const onChoose = vi.fn();
    const samsung = item("MLM1", "Celulares > Fundas para Samsung", "手机 > 三星手机壳");
    render(
      <CategoryPredictions
        result={answer({
          method: "chineseNames",
          note: "未配置翻译服务，已按类目中文名匹配",
          items: [samsung, item("MLM2", "Celulares > Fundas", null, { selectable: false })],
        })}
        onChoose={onChoose}
      />,
    );
    const how = screen.getByTestId("products-editor-category-method");
    expect(how.dataset.method).toBe("chineseNames");
    expect(how.textContent).toBe("按中文类目名匹配未配置翻译服务，已按类目中文名匹配");
    const rows = screen.getByTestId("products-editor-category-predictions").querySelectorAll("li");
    expect(rows[1].textContent).toBe("手机 > 三星手机壳· Celulares > Fundas para Samsung使用");
    expect(rows[2].textContent).toBe("Celulares > Fundas不可选");
    fireEvent.click(screen.getByText("使用"));
    expect(onChoose).toHaveBeenCalledWith(samsung);
  });

  it("shows the translation Mercado Libre was asked with", () => {
    render(
      <CategoryPredictions
        result={answer({ method: "translated", translatedTitle: "Funda para Samsung", items: [item("MLM1", "Celulares > Fundas", null)] })}
        onChoose={() => {}}
      />,
    );
    expect(screen.getByTestId("products-editor-category-method").textContent).toBe("翻译后预测：Funda para Samsung");
  });

  it("gives the reason when a Chinese title cannot be predicted, and Mercado Libre's words otherwise", () => {
    const reason = "中文标题无法预测：未配置翻译服务，且该站点的类目还没有中文名。";
    render(<CategoryPredictions result={answer({ method: "chineseNames", note: reason })} onChoose={() => {}} />);
    expect(screen.getByTestId("products-editor-category-method").textContent).toBe(`按中文类目名匹配${reason}`);
    cleanup();
    render(<CategoryPredictions result={answer({})} onChoose={() => {}} />);
    expect(screen.queryByTestId("products-editor-category-method")).toBeNull();
    expect(screen.getByText("美客多没有为这个标题推荐类目，请换个标题或直接搜索类目。")).toBeTruthy();
  });
});
