import type { ReactNode } from "react";
import { cn } from "./cn.ts";
import { Empty } from "./empty.tsx";

// Small SVG charts for the workbench, with no charting library: a few dozen points do not justify one in the bundle.

export type ChartDatum = { label: string; value: number };

export type ChartProps = {
  data: ChartDatum[];
  /** Height in viewBox units (the chart scales with its width, keeping this aspect ratio). Defaults to 240. */
  height?: number;
  /** Formats axis labels and point tooltips; defaults to zh-CN number format. */
  formatValue?: (value: number) => string;
  /** Accessible name. */
  title?: string;
  className?: string;
  /** Shown instead of the chart when there is no data; defaults to 暂无数据. */
  emptyText?: ReactNode;
};

const WIDTH = 600;
const PAD_TOP = 12;
const PAD_RIGHT = 16;
const PAD_BOTTOM = 28;
const FONT_SIZE = 11;
const TICK_COUNT = 4;

const defaultFormat = (value: number) => value.toLocaleString("zh-CN");

/** A 1/2/5×10^n step so the axis reads in round numbers. */
function niceStep(rough: number): number {
  const exponent = Math.floor(Math.log10(rough));
  const base = 10 ** exponent;
  const fraction = rough / base;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * base;
}

/** The y-axis: always includes 0, never a zero range (all-zero data gets 0…1). Exported for tests. */
export function yScale(values: number[]): { min: number; max: number; ticks: number[] } {
  const finite = values.filter(Number.isFinite);
  let lo = Math.min(0, ...finite);
  let hi = Math.max(0, ...finite);
  if (hi === lo) hi = lo + 1;
  let step = niceStep((hi - lo) / TICK_COUNT);
  if (!Number.isFinite(step) || step <= 0) step = hi - lo;
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  // Rounded to the step's precision so 0.1+0.2-style float noise never reaches a label.
  const digits = Math.max(0, -Math.floor(Math.log10(step)));
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Number(v.toFixed(digits)));
  return { min: lo, max: hi, ticks };
}

type Layout = {
  left: number;
  plotWidth: number;
  plotHeight: number;
  y: (value: number) => number;
  ticks: number[];
  labelEvery: number;
};

function layout(data: ChartDatum[], height: number, format: (v: number) => string, slots: number): Layout {
  const { min, max, ticks } = yScale(data.map((d) => d.value));
  const widest = Math.max(...ticks.map((t) => format(t).length));
  const left = Math.min(80, 8 + widest * FONT_SIZE * 0.62);
  const plotWidth = WIDTH - left - PAD_RIGHT;
  const plotHeight = Math.max(1, height - PAD_TOP - PAD_BOTTOM);
  const y = (value: number) => PAD_TOP + plotHeight - ((value - min) / (max - min)) * plotHeight;
  // Thin the x labels so they never overlap (about 64 units per label).
  const labelEvery = Math.max(1, Math.ceil(slots / Math.max(1, Math.floor(plotWidth / 64))));
  return { left, plotWidth, plotHeight, y, ticks, labelEvery };
}

function Frame({ title, height, className, children }: { title: string; height: number; className?: string; children: ReactNode }) {
  return (
    <svg
      role="img"
      aria-label={title}
      viewBox={`0 0 ${WIDTH} ${height}`}
      className={cn("block h-auto w-full overflow-visible", className)}
      style={{ fontSize: FONT_SIZE }}
    >
      <title>{title}</title>
      {children}
    </svg>
  );
}

function YAxis({ l, format }: { l: Layout; format: (v: number) => string }) {
  return (
    <g data-slot="chart-y-axis">
      {l.ticks.map((t) => (
        <g key={t}>
          <line
            x1={l.left}
            x2={l.left + l.plotWidth}
            y1={l.y(t)}
            y2={l.y(t)}
            className="stroke-border"
            strokeDasharray={t === 0 ? undefined : "3 3"}
          />
          <text x={l.left - 6} y={l.y(t)} textAnchor="end" dominantBaseline="middle" className="fill-muted-foreground">
            {format(t)}
          </text>
        </g>
      ))}
    </g>
  );
}

function XLabel({ x, height, text, show }: { x: number; height: number; text: string; show: boolean }) {
  if (!show) return null;
  return (
    <text x={x} y={height - PAD_BOTTOM + 18} textAnchor="middle" className="fill-muted-foreground">
      {text}
    </text>
  );
}

export function LineChart({ data, height = 240, formatValue = defaultFormat, title = "折线图", className, emptyText }: ChartProps) {
  if (data.length === 0) return <Empty className={className} text={emptyText} style={{ minHeight: height / 2 }} />;
  const l = layout(data, height, formatValue, data.length);
  // A single point sits in the middle rather than on the axis.
  const x = (i: number) => (data.length === 1 ? l.left + l.plotWidth / 2 : l.left + (i / (data.length - 1)) * l.plotWidth);
  const points = data.map((d, i) => `${x(i)},${l.y(Number.isFinite(d.value) ? d.value : 0)}`).join(" ");
  return (
    <Frame title={title} height={height} className={cn("text-primary", className)}>
      <YAxis l={l} format={formatValue} />
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth={2} strokeLinejoin="round" strokeLinecap="round" />
      {data.map((d, i) => (
        <g key={i} data-slot="chart-point">
          <circle
            cx={x(i)}
            cy={l.y(Number.isFinite(d.value) ? d.value : 0)}
            r={3.5}
            className="fill-background"
            stroke="currentColor"
            strokeWidth={2}
          >
            <title>{`${d.label}: ${formatValue(d.value)}`}</title>
          </circle>
          <XLabel x={x(i)} height={height} text={d.label} show={i % l.labelEvery === 0 || i === data.length - 1} />
        </g>
      ))}
    </Frame>
  );
}

export function BarChart({ data, height = 240, formatValue = defaultFormat, title = "柱状图", className, emptyText }: ChartProps) {
  if (data.length === 0) return <Empty className={className} text={emptyText} style={{ minHeight: height / 2 }} />;
  const l = layout(data, height, formatValue, data.length);
  const slot = l.plotWidth / data.length;
  const barWidth = Math.max(2, Math.min(40, slot * 0.6));
  const zero = l.y(0);
  return (
    <Frame title={title} height={height} className={cn("text-primary", className)}>
      <YAxis l={l} format={formatValue} />
      {data.map((d, i) => {
        const value = Number.isFinite(d.value) ? d.value : 0;
        const cx = l.left + slot * i + slot / 2;
        const top = Math.min(zero, l.y(value));
        return (
          <g key={i} data-slot="chart-bar">
            <rect x={cx - barWidth / 2} y={top} width={barWidth} height={Math.abs(l.y(value) - zero)} rx={2} fill="currentColor">
              <title>{`${d.label}: ${formatValue(d.value)}`}</title>
            </rect>
            <XLabel x={cx} height={height} text={d.label} show={i % l.labelEvery === 0} />
          </g>
        );
      })}
    </Frame>
  );
}
