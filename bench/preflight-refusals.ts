// How many sandbox refusals the publish pre-flight check prevents on a mixed batch (issue 15). The same products are
// sent without the check (every planned body POSTed to the sandbox) and published with it (Publish skips what the
// check refuses); server/testing/refusal-study.ts says how the batch is mixed.
//
//   npm run bench:refusals                      # 20 products of each kind (140 pairs), the app in process on PGlite
//   npm run bench:refusals -- --per-defect=50
import { parseArgs } from "node:util";
import { startTestServer } from "../server/testing/harness.ts";
import { refusalStudy, studyTotals } from "../server/testing/refusal-study.ts";
import { machine } from "./measure.ts";

const { values: args } = parseArgs({ options: { "per-defect": { type: "string", default: "20" } } });
const perDefect = Number(args["per-defect"]);

const s = await startTestServer();
try {
  const started = performance.now();
  const rows = await refusalStudy(s, perDefect);
  const t = studyTotals(rows);
  const m = machine();
  console.log(`machine: ${m.cpuModel}, ${m.nproc} cores, ${m.memGiB} GiB, node ${m.node}, PGlite ${m.pglite}, load ${m.loadavg}`);
  console.log(`command: npm run bench:refusals -- --per-defect=${perDefect}  (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  console.log(
    "| defect | pairs | refused by the check | sandbox refusals without the check (causes) | created with the check | sandbox refusals with the check |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const r of rows)
    console.log(
      `| ${r.defect} | ${r.pairs} | ${r.checkRefused} | ${r.refusedWithout}${r.causes.length ? ` (${r.causes.join(", ")})` : ""} | ${r.createdWith} | ${r.refusedWith} |`,
    );
  console.log(
    `\nprevented ${t.prevented} of ${t.refusedWithout} sandbox refusals (${((100 * t.prevented) / Math.max(1, t.refusedWithout)).toFixed(1)} %); ` +
      `${t.refusedWith} refusals left; the check refused ${t.stricterThanSandbox} pairs the sandbox would have taken.`,
  );
} finally {
  await s.close();
}
