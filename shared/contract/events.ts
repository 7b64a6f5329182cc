// Live progress (issue 15): what GET /api/events streams as server-sent events. Each event says that a task or a
// publish batch changed and how far it is; the console refetches what it shows of it.

/** What changed: a background task (task centre), a publish batch, or orders (arrived or changed: issue 18, the id is
 *  a shop group's, one event per stored page and shop owner). */
export type ProgressKind = "task" | "publishBatch" | "order";

export type ProgressEvent = {
  kind: ProgressKind;
  /** The task's or the batch's id. */
  id: string;
  /** The task type (TaskType) for a task. */
  taskType?: number;
  /** The task's or the batch's status (TaskStatus). */
  status?: number;
  /** 0 to 100. */
  progress?: number;
  /** A batch's counts so far. */
  total?: number;
  success?: number;
  fail?: number;
};

/** The stream's URL (not in the spec: the console's live progress channel). */
export const EVENTS_PATH = "/api/events";

/**
 * Event names on the stream. `progress` carries a ProgressEvent; `ready` says the stream is live (its id is where a
 * reconnect resumes); `reset` says events were missed (the Last-Event-ID is too old or from another server process)
 * and everything shown should be fetched again.
 */
export const StreamEvent = { Progress: "progress", Ready: "ready", Reset: "reset" } as const;
