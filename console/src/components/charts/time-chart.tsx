// A chart of daily figures drawn by uPlot (docs/decisions.md, "Charts: uPlot"): canvas, small, fast with a year of
// points. It is imported only by lazy screens and drawers, so the login route never loads it. Days are UTC (the
// statistics count UTC days); the legend under the chart shows the values of the day under the pointer.
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export type TimeSeries = {
  label: string;
  values: number[];
  /** A CSS colour or a theme variable's name (--chart-1). */
  color: string;
};

export type TimeChartProps = {
  /** Unix seconds of each point. */
  x: number[];
  series: TimeSeries[];
  /** Accessible name (the canvas itself says nothing to a screen reader). */
  title: string;
  kind?: "line" | "bars";
  height?: number;
  /** The y axis and the legend's values (default: whole counts, zh-CN). */
  format?: (value: number) => string;
  testId?: string;
};

const pad = (n: number) => String(n).padStart(2, "0");
const utc = (seconds: number) => new Date(seconds * 1000);
const dayLabel = (seconds: number) => `${pad(utc(seconds).getUTCMonth() + 1)}-${pad(utc(seconds).getUTCDate())}`;
const fullDay = (seconds: number) => utc(seconds).toISOString().slice(0, 10);
const count = (v: number) => (Number.isInteger(v) ? v.toLocaleString("zh-CN") : "");

/** A theme variable resolved now (canvas cannot read CSS variables), or the colour as given. */
function resolveColor(color: string, el: HTMLElement): string {
  if (!color.startsWith("--")) return color;
  return getComputedStyle(el).getPropertyValue(color).trim() || "#2563eb";
}

function chartOptions(p: TimeChartProps, el: HTMLElement, width: number): uPlot.Options {
  const muted = resolveColor("--muted-foreground", el);
  const grid = { stroke: resolveColor("--border", el), width: 1 };
  const bars = p.kind === "bars" ? uPlot.paths.bars!({ size: [0.6, 24] }) : undefined;
  const format = p.format ?? ((v: number) => v.toLocaleString("zh-CN"));
  const tick = p.format ?? count;
  return {
    width,
    height: p.height ?? 220,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
    cursor: { points: { show: p.kind !== "bars" } },
    // From 0 up, or below 0 when a value is (a day's profit can be a loss).
    scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, Math.floor(min * 1.1)), Math.max(4, Math.ceil(max * 1.1))] } },
    axes: [
      { stroke: muted, grid, ticks: grid, values: (_u, splits) => splits.map(dayLabel) },
      { stroke: muted, grid, ticks: grid, size: 48, values: (_u, splits) => splits.map(tick) },
    ],
    series: [
      { label: "日期", value: (_u, v) => (v == null ? "-" : fullDay(v)) },
      ...p.series.map((s) => {
        const color = resolveColor(s.color, el);
        return {
          label: s.label,
          stroke: color,
          width: bars ? 0 : 2,
          fill: bars ? color : undefined,
          paths: bars,
          points: { show: !bars && p.x.length <= 45, size: 5 },
          value: (_u: uPlot, v: number | null) => (v == null ? "-" : format(v)),
        };
      }),
    ],
  };
}

export function TimeChart(p: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const data: uPlot.AlignedData = [p.x, ...p.series.map((s) => s.values)];
    const plot = new uPlot(chartOptions(p, el, el.clientWidth || 600), data, el);
    // The drawer and the window change size: the chart follows its box's width.
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: p.height ?? 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the chart is drawn again when its data or shape changes
  }, [p.x, p.series, p.kind, p.height, p.format]);

  return <div ref={box} role="img" aria-label={p.title} className="w-full text-xs" data-testid={p.testId} />;
}
