/**
 * `control`: the client-team controls of a started server (`/_controls/v1`, docs/testing.md "Client-team
 * controls") as typed methods. They speak HTTP to the plane, so they work the same against a server of
 * `startServer({ controls: true })` and one of `boardkit serve --client-controls`.
 * @module
 */

/** One request the server received, as its journal holds it. */
export interface JournalEntry {
  requestId: string;
  method: string;
  /** The path without its query. */
  path: string;
  /** The contract's operation, or `null` for a path the contract does not have. */
  operationId: string | null;
  /** The status sent; `0` for a connection a fault dropped. */
  status: number;
  /** When it arrived, on the server clock (ISO 8601). */
  time: string;
  durationMs: number;
  /** The id of the queued fault that took it, if one did. */
  fault: string | null;
}

export interface JournalFilter {
  /** Only requests of this `operationId`. */
  operation?: string;
  /** Only requests that arrived at or after this instant (server clock). */
  since?: string | Date;
}

export interface FaultOptions {
  /** How many of the next matching requests it takes (1 by default). */
  count?: number;
  /** Answer with this status and its problem from the contract's catalogue (Retry-After on 429). */
  status?: number;
  /** Wait this many milliseconds first (real time). */
  delayMs?: number;
  /** Close the connection without an answer. */
  drop?: boolean;
}

export interface QueuedFault {
  id: string;
  operation: string;
  remaining: number;
  status: number | null;
  delayMs: number;
  drop: boolean;
}

export type ControlledSessionState = 'failed' | 'cancelled';

/** The decision memo a session completes with: the verdict, and any other member to set (contract `Memo`). */
export interface CompletionMemo {
  verdict: string;
  /** 0 to 100; the board's own figure when not given. */
  confidence?: number;
  /** Conditions under which the verdict holds; the board's own when not given. */
  conditions?: string[];
  /** One entry per dissenting Synth; the board's own when not given. */
  dissent?: Array<{ synth: string; position: string }>;
}

export interface ResetOptions {
  /**
   * Also drop every record made since the server started (sessions, messages, shares, webhook
   * subscriptions and deliveries, idempotency records, credit movements), back to what it started with:
   * its provisioned keys and its seed data.
   */
  data?: boolean;
}

export interface SessionStateOptions {
  /** For `failed`: the recorded `SessionError`. */
  error?: { code: string; message: string };
  /** For `cancelled`: the cancellation reason. */
  reason?: string;
}

export interface ServerControl {
  journal(filter?: JournalFilter): Promise<JournalEntry[]>;
  clearJournal(): Promise<void>;
  failNext(operationId: string, options?: FaultOptions): Promise<QueuedFault>;
  faults(): Promise<QueuedFault[]>;
  clearFaults(): Promise<void>;
  setSessionState(id: string, state: ControlledSessionState, options?: SessionStateOptions): Promise<void>;
  /**
   * Completes a session's run at once with this memo: the rest of its board is published, then the memo,
   * the final summary, the outcomes and `session.complete`, as a run that ends by itself does.
   */
  completeSession(id: string, memo: CompletionMemo): Promise<void>;
  /** Moves the server clock forward; returns its new time. */
  advanceClock(ms: number): Promise<string>;
  /** Empties the journal and the queued faults; with `data`, also brings the data back to its start. */
  reset(options?: ResetOptions): Promise<void>;
}

/** The path of the plane's version this client speaks. */
export const controlsPath = '/_controls/v1';

type Wire = Record<string, unknown>;

/** A journal entry as the plane sends it. */
interface WireEntry {
  request_id: string;
  method: string;
  path: string;
  operation_id: string | null;
  status: number;
  time: string;
  duration_ms: number;
  fault: string | null;
}

const fromWireFault = (fault: Wire): QueuedFault => ({
  id: String(fault.id),
  operation: String(fault.operation),
  remaining: Number(fault.remaining),
  status: fault.status === null ? null : Number(fault.status),
  delayMs: Number(fault.delay_ms),
  drop: fault.drop === true,
});

/** The controls of the server at `baseUrl`. */
export function serverControl(baseUrl: string): ServerControl {
  async function call(method: string, path: string, body?: Wire): Promise<Wire> {
    const response = await fetch(`${baseUrl}${controlsPath}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const json = (await response.json().catch(() => ({}))) as Wire;
    // The app's answer for a route it does not have, not the plane's for an unknown session.
    if (response.status === 404 && typeof json.detail === 'string' && json.detail.startsWith('No resource lives at')) {
      throw new Error(`the server has no client controls: start it with { controls: true } or serve --client-controls`);
    }
    if (!response.ok) {
      const detail = typeof json.detail === 'string' ? json.detail : '';
      throw new Error(`${method} ${controlsPath}${path}: ${response.status} ${detail}`);
    }
    return json;
  }
  return {
    async journal(filter = {}) {
      const query = new URLSearchParams();
      if (filter.operation !== undefined) {
        query.set('operation', filter.operation);
      }
      if (filter.since !== undefined) {
        query.set('since', filter.since instanceof Date ? filter.since.toISOString() : filter.since);
      }
      const { requests } = await call('GET', `/journal${query.size > 0 ? `?${query.toString()}` : ''}`);
      return (requests as WireEntry[]).map((entry) => ({
        requestId: entry.request_id,
        method: entry.method,
        path: entry.path,
        operationId: entry.operation_id,
        status: entry.status,
        time: entry.time,
        durationMs: entry.duration_ms,
        fault: entry.fault,
      }));
    },
    clearJournal: async () => void (await call('DELETE', '/journal')),
    async failNext(operationId, options = {}) {
      const fault = await call('POST', '/faults', {
        operation: operationId,
        ...(options.count === undefined ? {} : { count: options.count }),
        ...(options.status === undefined ? {} : { status: options.status }),
        ...(options.delayMs === undefined ? {} : { delay_ms: options.delayMs }),
        ...(options.drop === undefined ? {} : { drop: options.drop }),
      });
      return fromWireFault(fault);
    },
    faults: async () => ((await call('GET', '/faults')).faults as Wire[]).map(fromWireFault),
    clearFaults: async () => void (await call('DELETE', '/faults')),
    async setSessionState(id, state, options = {}) {
      await call('PUT', `/sessions/${encodeURIComponent(id)}/state`, {
        state,
        ...(options.error === undefined
          ? {}
          : { error_code: options.error.code, error_message: options.error.message }),
        ...(options.reason === undefined ? {} : { reason: options.reason }),
      });
    },
    async completeSession(id, memo) {
      await call('PUT', `/sessions/${encodeURIComponent(id)}/state`, {
        state: 'complete',
        verdict: memo.verdict,
        ...(memo.confidence === undefined ? {} : { confidence_0_100: memo.confidence }),
        ...(memo.conditions === undefined ? {} : { conditions: memo.conditions }),
        ...(memo.dissent === undefined ? {} : { dissent: memo.dissent }),
      });
    },
    advanceClock: async (ms) => String((await call('POST', '/clock', { advance_ms: ms })).now),
    reset: async (options = {}) => void (await call('POST', '/reset', options.data === true ? { data: true } : {})),
  };
}
