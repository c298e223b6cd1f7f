/**
 * Progress of a run while it goes: Schemathesis prints a phase only when it ends (a coverage phase can
 * take minutes), so the kit's hooks (conformance/schemathesis/hooks.py) report each request as it is
 * answered, one JSON line on a pipe, and the command prints a line for each phase and each operation the
 * phase reaches, and a count of the requests at most every `heartbeatSeconds` in between.
 * @module
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** One request of the run, as the hooks report it. */
export interface CallRecord {
  /** `examples`, `coverage`, `fuzzing` or `stateful`; `null` for a request outside the phases. */
  phase: string | null;
  /** `METHOD /path`, as Schemathesis labels the operation. */
  operation: string;
  status: number;
}

function isCallRecord(value: unknown): value is CallRecord {
  const record = value as Partial<CallRecord> | null;
  return typeof record?.operation === 'string' && typeof record.status === 'number';
}

/** Reads the hooks' lines; a line that is not a record (none is expected) is left out. */
export function readCallRecords(stream: Readable, onCall: (call: CallRecord) => void): void {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
    try {
      const value: unknown = JSON.parse(line);
      if (isCallRecord(value)) {
        onCall(value);
      }
    } catch {
      // Not a record.
    }
  });
}

export interface ProgressOptions {
  write: (line: string) => void;
  /** Milliseconds since some origin; the process's monotonic clock by default. */
  now?: () => number;
  heartbeatSeconds?: number;
}

/** Turns the run's requests into progress lines, `[  12 s] coverage  GET /v1/sessions/{id}  (…)`. */
export function progressPrinter(options: ProgressOptions): (call: CallRecord) => void {
  const now = options.now ?? (() => performance.now());
  const heartbeatMs = (options.heartbeatSeconds ?? 15) * 1000;
  const started = now();
  let phase: string | null | undefined;
  let operations = new Set<string>();
  let calls = 0;
  let lastLine = started;

  const line = (text: string) => {
    lastLine = now();
    const seconds = Math.round((lastLine - started) / 1000);
    options.write(`[${String(seconds).padStart(4)} s] ${text}`);
  };

  return (call) => {
    const phaseName = call.phase ?? 'setup';
    if (call.phase !== phase) {
      phase = call.phase;
      operations = new Set();
      calls = 0;
      line(`${phaseName} phase`);
    }
    calls += 1;
    if (!operations.has(call.operation)) {
      operations.add(call.operation);
      line(`${phaseName}  ${call.operation}  (operation ${operations.size} of the phase, ${calls} requests so far)`);
    } else if (now() - lastLine >= heartbeatMs) {
      line(`${phaseName}  ${calls} requests, ${operations.size} operations so far`);
    }
  };
}
