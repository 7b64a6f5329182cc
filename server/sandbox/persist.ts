// The sandbox's state in a file, so a restart keeps its sellers, tokens, items and orders (the app's listings point at
// them). Generic on purpose: Maps and Sets are written as tagged arrays, everything else as JSON, so a field added to
// the state persists without code here. Writes are atomic (a temp file renamed over the old one) and coalesced: the
// first change schedules one write a moment later; flush() writes at once (on close).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

const WRITE_AFTER_MS = 1000;
const FORMAT = 1;

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Map) return { $map: [...value] };
  if (value instanceof Set) return { $set: [...value] };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.$map) && Object.keys(v).length === 1) return new Map(v.$map as [unknown, unknown][]);
    if (Array.isArray(v.$set) && Object.keys(v).length === 1) return new Set(v.$set);
  }
  return value;
}

function serializeState(state: Record<string, unknown>): string {
  return JSON.stringify({ format: FORMAT, state }, replacer);
}

/** The state saved in the file, or null when there is none. An unreadable file is set aside and the sandbox starts empty. */
export function loadState(file: string): Record<string, unknown> | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  try {
    const parsed = JSON.parse(text, reviver) as { format?: number; state?: Record<string, unknown> };
    if (parsed.format !== FORMAT || !parsed.state || typeof parsed.state !== "object") throw new Error(`unknown format ${parsed.format}`);
    return parsed.state;
  } catch (e) {
    const aside = `${file}.unreadable-${Date.now()}`;
    renameSync(file, aside);
    console.warn(`[sandbox] ${file} could not be read (${(e as Error).message}); moved to ${aside}, starting empty`);
    return null;
  }
}

function writeStateFile(file: string, state: Record<string, unknown>) {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, serializeState(state), { mode: 0o600 });
  renameSync(tmp, file);
}

export function createSaver(file: string, snapshot: () => Record<string, unknown>) {
  let timer: NodeJS.Timeout | null = null;
  let lastWriteMs = 0;
  const write = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const started = performance.now();
    try {
      writeStateFile(file, snapshot());
    } catch (e) {
      console.error(`[sandbox] could not write ${file}:`, e);
    }
    lastWriteMs = performance.now() - started;
  };
  return {
    schedule() {
      if (timer) return;
      // A big state (thousands of items) is written less often: writing takes at most a tenth of the time.
      timer = setTimeout(write, Math.max(WRITE_AFTER_MS, lastWriteMs * 10));
      timer.unref();
    },
    flush() {
      if (timer) write();
    },
  };
}
