// SIGTERM and SIGINT at any moment of the process's life (issue 29: a stop during the first start's work left the
// process alive for minutes, and a restart on the same data waited on it). Listened to from the first line of main, so
// a signal during the migrations or the first start's queueing is not lost; what the start opened so far is closed in
// reverse order (the app stops taking requests, the job queue hands its running jobs back to be retried, the database
// closes), each step bounded, and the process exits whatever a step does.

/** One step's bound and the whole stop's; past the last, the process exits with 1 and says which step held it. */
const STOP_LIMITS = { stepMs: 5_000, totalMs: 15_000 };

export type Shutdown = {
  /** A stop signal arrived: a start in progress goes no further. */
  readonly stopping: boolean;
  /** Something opened that the stop closes; the last added closes first. */
  add(name: string, close: () => Promise<unknown>): void;
};

type Step = { name: string; close: () => Promise<unknown> };

/** Closes one step, waiting at most `ms`: past it, says which step held and goes on. */
export async function closeWithin(step: Step, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.error(`[stop] ${step.name}: not closed after ${ms / 1000} s, going on`);
      resolve();
    }, ms);
  });
  await Promise.race([step.close().catch((err: unknown) => console.error(`[stop] ${step.name}:`, err)), late]);
  clearTimeout(timer);
}

/** Listens for SIGTERM and SIGINT now; on the first, closes what was added and exits 0. */
export function onStopSignals(limits = STOP_LIMITS): Shutdown {
  const steps: Step[] = [];
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`[stop] ${signal}: closing`);
    setTimeout(() => {
      console.error(`[stop] not stopped after ${limits.totalMs / 1000} s: exiting`);
      process.exit(1);
    }, limits.totalMs).unref();
    for (const step of [...steps].reverse()) await closeWithin(step, limits.stepMs);
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return {
    get stopping() {
      return stopping;
    },
    add(name, close) {
      steps.push({ name, close });
    },
  };
}
