// A trend in a table cell: a polyline over the reads with a dot on the latest, no axes (the cell's tooltip says first
// and last). One read alone is the dot.
import { cn } from "#shared/ui/cn.ts";

/** SVG points for values over a width × height box (a flat line for one value or equal values); nulls are left out. */
export function sparkPoints(values: readonly (number | null)[], width: number, height: number): string {
  const known = values.map((v, i) => [i, v] as const).filter((p): p is readonly [number, number] => p[1] !== null);
  if (!known.length) return "";
  const ys = known.map((p) => p[1]);
  const lo = Math.min(...ys);
  const hi = Math.max(...ys);
  const last = Math.max(1, values.length - 1);
  const pad = 2;
  return known
    .map(([i, v]) => {
      const x = values.length === 1 ? width / 2 : (i / last) * width;
      const y = hi === lo ? height / 2 : pad + (1 - (v - lo) / (hi - lo)) * (height - 2 * pad);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(" ");
}

export function Sparkline({
  values,
  label,
  width = 96,
  height = 28,
  className,
}: {
  values: readonly (number | null)[];
  label: string;
  width?: number;
  height?: number;
  className?: string;
}) {
  const points = sparkPoints(values, width, height);
  if (!points) return <span className="text-muted-foreground text-xs">-</span>;
  const [lastX, lastY] = points.slice(points.lastIndexOf(" ") + 1).split(",");
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-label={label}
      className={cn("text-primary overflow-visible", className)}
    >
      <title>{label}</title>
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" />
      <circle cx={lastX} cy={lastY} r={2} fill="currentColor" />
    </svg>
  );
}
