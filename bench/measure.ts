// What every benchmark reports beside its figures: the machine, the CPU a process and the machine spent over a phase,
// a process's memory, and exact percentiles of the latencies kept.
import { execFileSync } from "node:child_process";
import { Agent, request } from "node:http";
import { readFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { repoRoot } from "../e2e/app-process.ts";

export function machine() {
  const model = /model name\s*:\s*(.+)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model;
  let nproc = String(cpus().length);
  try {
    nproc = execFileSync("nproc", { encoding: "utf8" }).trim();
  } catch {
    // os.cpus() then
  }
  const pgliteVersion = (
    JSON.parse(readFileSync(join(repoRoot, "node_modules/@electric-sql/pglite/package.json"), "utf8")) as { version: string }
  ).version;
  return {
    nproc,
    cpuModel: model,
    memGiB: (totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    pglite: pgliteVersion,
    loadavg: loadAvg(),
  };
}

export const loadAvg = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function machineTicks(): { busy: number; total: number } {
  const v = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = v[3] + (v[4] ?? 0);
  return { busy: v.reduce((a, b) => a + b, 0) - idle, total: v.reduce((a, b) => a + b, 0) };
}

/** CPU of a process and the machine's busy share over a phase. */
export function cpuMeter(pid?: number) {
  const p0 = pid ? processCpuSeconds(pid) : 0;
  const m0 = machineTicks();
  const t0 = performance.now();
  return () => {
    const wall = (performance.now() - t0) / 1000;
    const m1 = machineTicks();
    return {
      wall,
      processCpuPct: pid ? ((processCpuSeconds(pid) - p0) / wall) * 100 : 0,
      machineBusyPct: ((m1.busy - m0.busy) / Math.max(1, m1.total - m0.total)) * 100,
    };
  };
}

export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : 0;
}

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN;
export function stats(lat: number[]) {
  const s = [...lat].sort((a, b) => a - b);
  return { n: s.length, p50: quantile(s, 0.5), p95: quantile(s, 0.95), p99: quantile(s, 0.99), max: s[s.length - 1] ?? NaN };
}

const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One POST of JSON (or a GET when body is null) over a kept-alive connection (node:http, the leanest client: its own
 * cost is not the server's).
 */
function postJson(url: string, token: string, body: string | null): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: body === null ? "GET" : "POST",
        agent: keepAlive,
        headers:
          body === null
            ? { authorization: `Bearer ${token}` }
            : { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        res.on("data", () => {});
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body ?? undefined);
  });
}

/**
 * Requests one after the other, n of them (stopping after maxMs, at least one): each one's latency and the statuses
 * seen. A call's "alone" time in the benchmarks.
 */
export async function sequentialPosts(url: string, token: string, body: unknown, n: number, maxMs = Infinity) {
  return sequentialRequests(url, token, JSON.stringify(body), n, maxMs);
}

/** sequentialPosts for a GET call (the query in the URL). */
export async function sequentialGets(url: string, token: string, n: number, maxMs = Infinity) {
  return sequentialRequests(url, token, null, n, maxMs);
}

async function sequentialRequests(url: string, token: string, text: string | null, n: number, maxMs: number) {
  const lat: number[] = [];
  const statuses = new Set<number>();
  const stop = performance.now() + maxMs;
  for (let i = 0; i < n && (i < 1 || performance.now() < stop); i++) {
    const t0 = performance.now();
    statuses.add(await postJson(url, token, text));
    lat.push(performance.now() - t0);
  }
  return { ...stats(lat), statuses: [...statuses] };
}
