// CI's last step: the slowest test files of each run, then one line "N passed, N failed" over both databases' reports
// (plus the failed checks and builds, given as the first argument; a skipped test counts as failed). Exits 1 when
// anything failed.
import { existsSync, readFileSync } from "node:fs";

const checksFailed = Number(process.argv[2] ?? 0);
const reports = ["pglite.json", "postgres.json"];
let passed = 0;
let failed = checksFailed;
const files = [];
// The checks and builds that failed, named by .ci/run ("type-check (extension); lint; ").
const failures = (process.argv[3] ?? "")
  .split(";")
  .map((c) => c.trim())
  .filter(Boolean)
  .map((c) => `check ${c}`);
for (const name of reports) {
  const path = `.ci/out/${name}`;
  if (!existsSync(path)) {
    failed += 1;
    console.log(`${name}: no report`);
    continue;
  }
  const r = JSON.parse(readFileSync(path, "utf8"));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  if (r.numTotalTests === 0) failed += 1;
  for (const s of r.testResults) {
    // A file that failed outside its tests (a set-up error, a crash) counts as one failure.
    const file = s.name.replace(`${process.cwd()}/`, "");
    if (s.status === "failed" && !s.assertionResults.some((a) => a.status === "failed")) {
      failed += 1;
      failures.push(`${name.replace(".json", "")} ${file}: ${String(s.message ?? "").slice(0, 300)}`);
    }
    for (const a of s.assertionResults.filter((t) => t.status === "failed"))
      failures.push(`${name.replace(".json", "")} ${file} > ${a.fullName}: ${String(a.failureMessages?.[0] ?? "").slice(0, 300)}`);
    // A skipped test hides what it would check: it counts as failed, named here (a file that needs one database is
    // left out of the other run in vitest.config.ts instead).
    for (const a of s.assertionResults.filter((t) => ["skipped", "pending", "todo"].includes(t.status))) {
      failed += 1;
      failures.push(`${name.replace(".json", "")} ${file} > ${a.fullName}: ${a.status}`);
    }
    files.push({ run: name.replace(".json", ""), file, ms: s.endTime - s.startTime });
  }
}
console.log("Slowest 20 test files (both runs):");
for (const f of files.sort((a, b) => b.ms - a.ms).slice(0, 20))
  console.log(`${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.run.padEnd(8)} ${f.file}`);
// What failed goes last, next to the count, where a truncated log still shows it.
if (failures.length) console.log(`Failed:\n${failures.map((f) => `  ${f.replace(/\s+/g, " ")}`).join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
