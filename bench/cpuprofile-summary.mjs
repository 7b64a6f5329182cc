// Summarizes a V8 .cpuprofile (from `npm run bench -- --cpu-prof`): self time by package/file and by function, and
// inclusive time of functions whose label contains one of the comma-separated patterns.
//   node bench/cpuprofile-summary.mjs bench/.data/prof/CPU….cpuprofile "jwtVerify,loadSessionUser" [last-seconds]
// With last-seconds, only the samples of the profile's final seconds count (the load, not the start-up).
import { readFileSync } from "node:fs";
const prof = JSON.parse(readFileSync(process.argv[2], "utf8"));
const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const dt = new Map();
const lastUs = Number(process.argv[4] ?? 0) * 1e6;
const endUs = prof.endTime - prof.startTime;
let at = 0;
for (let i = 0; i < prof.samples.length; i++) {
  at += prof.timeDeltas[i] ?? 0;
  if (lastUs && at < endUs - lastUs) continue;
  dt.set(prof.samples[i], (dt.get(prof.samples[i]) ?? 0) + (prof.timeDeltas[i] ?? 0));
}
const total = [...dt.values()].reduce((a, b) => a + b, 0);
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const bySelf = new Map(),
  byFile = new Map();
const label = (n) =>
  `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.replace(/^.*node_modules\//, "nm:").replace(/^file:\/\/\/work\/main\//, "")}:${n.callFrame.lineNumber}`;
const pkg = (u) => {
  if (!u) return "(native/gc/idle)";
  const m = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(u);
  if (m) return "nm:" + m[1];
  if (u.startsWith("node:")) return u.split("/")[0] + (u.includes("internal/") ? " " + u.split("/").slice(1, 3).join("/") : "");
  return u.replace(/^file:\/\/\/work\/main\//, "");
};
for (const [id, t] of dt) {
  const n = nodes.get(id);
  bySelf.set(label(n), (bySelf.get(label(n)) ?? 0) + t);
  const p = pkg(n.callFrame.url) + (n.callFrame.url ? "" : " " + n.callFrame.functionName);
  byFile.set(p, (byFile.get(p) ?? 0) + t);
}
const show = (m, k = 25) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([l, t]) => `${((t / total) * 100).toFixed(1).padStart(5)}%  ${l}`)
    .join("\n");
console.log(`total ${(total / 1e6).toFixed(1)} s\n--- self by package/file`);
console.log(show(byFile, 30));
console.log("--- self by function");
console.log(show(bySelf, 30));
// inclusive: for each sample, walk up, count each distinct function name matching patterns once
const pats = (process.argv[3] ?? "").split(",").filter(Boolean);
if (pats.length) {
  const inc = new Map();
  for (const [id, t] of dt) {
    const seen = new Set();
    let cur = id;
    while (cur !== undefined) {
      const n = nodes.get(cur);
      for (const p of pats)
        if (!seen.has(p) && label(n).includes(p)) {
          seen.add(p);
          inc.set(p, (inc.get(p) ?? 0) + t);
        }
      cur = parent.get(cur);
    }
  }
  console.log("--- inclusive");
  console.log(show(inc, 50));
}
