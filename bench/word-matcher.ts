// Word matcher benchmark (shared/text/aho-corasick.ts): the infringement check's matcher with 10,000 words over a
// ~165 KB title text, against the floor of any matcher, one pass over the same text's code points with a Map lookup
// per character, measured in the same run. Pure CPU, no server.
//
//   npx tsx bench/word-matcher.ts                 # 5 warm-up runs, then 50 timed runs of each
//   npx tsx bench/word-matcher.ts --runs=200
//
// Prints the machine, the build time, and median / p95 ms of the scan and of the floor with their ratio.
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createWordMatcher, normalizeWord } from "#shared/text/aho-corasick.ts";

const { values: args } = parseArgs({ options: { runs: { type: "string", default: "50" }, warmup: { type: "string", default: "5" } } });
const runs = Number(args.runs);
const warmup = Number(args.warmup);

const words = Array.from({ length: 10_000 }, (_, i) => `brand${i}`);
words.push("耐克");
const text = `${"lorem ipsum dolor sit amet brand ".repeat(5000)} brand42 brand9999x 正品耐克 brand10000 BRAND7`;

function timed(fn: () => unknown): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out.sort((a, b) => a - b);
}
const at = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];

const b0 = performance.now();
const matcher = createWordMatcher(words);
const buildMs = performance.now() - b0;

// The floor: normalize the text, walk its code points, one Map lookup each (what every scan must at least do).
const firstChars = new Map(words.map((w) => [normalizeWord(w).codePointAt(0)!, true]));
const floor = () => {
  let hits = 0;
  for (const ch of Array.from(normalizeWord(text))) if (firstChars.has(ch.codePointAt(0)!)) hits++;
  return hits;
};
const scan = timed(() => matcher.findAll(text));
const bare = timed(floor);

console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}, node ${process.version}`,
);
console.log(`words ${matcher.size}, text ${text.length} characters, build ${buildMs.toFixed(1)} ms`);
console.log("| | median ms | p95 ms |");
console.log("|---|---|---|");
console.log(`| findAll | ${at(scan, 0.5).toFixed(2)} | ${at(scan, 0.95).toFixed(2)} |`);
console.log(`| floor (one Map lookup per character) | ${at(bare, 0.5).toFixed(2)} | ${at(bare, 0.95).toFixed(2)} |`);
console.log(`ratio (median): ${(at(scan, 0.5) / at(bare, 0.5)).toFixed(2)}×`);
