// One workbench trend drawn by the console's uPlot wrapper (components/charts/time-chart.tsx, docs/decisions.md "Charts:
// uPlot"), the same as the host's statistics drawer. Loaded lazily by the workbench (workbench-page.tsx), so its
// cards paint first and the chart library arrives with the charts.
import { useMemo } from "react";
import type { WorkbenchPoint } from "#shared/contract/workbench.ts";
import { TimeChart, type TimeSeries } from "../../components/charts/time-chart.tsx";

export type TrendChartProps = {
  points: WorkbenchPoint[];
  /** The series' name in the legend and the chart's accessible name. */
  title: string;
  kind: "line" | "bars";
  height: number;
  format?: (value: number) => string;
  testId?: string;
};

/** Unix seconds of a UTC day's midnight (the workbench counts UTC days, as the chart's axis does). */
const daySeconds = (date: string) => Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / 1000;

export default function TrendChart({ points, title, kind, height, format, testId }: TrendChartProps) {
  const x = useMemo(() => points.map((p) => daySeconds(p.date)), [points]);
  const series = useMemo<TimeSeries[]>(() => [{ label: title, values: points.map((p) => p.value), color: "--chart-1" }], [points, title]);
  return <TimeChart x={x} series={series} title={title} kind={kind} height={height} format={format} testId={testId} />;
}
