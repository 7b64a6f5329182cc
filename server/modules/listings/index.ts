// The listings module's door: what other modules use of it. The margin recompute's job name and what it takes, for
// the places that change what a margin is computed from (issue 32: a category's fees in the category sync).
export { MARGIN_JOB, type MarginChange } from "./margin-job.ts";
