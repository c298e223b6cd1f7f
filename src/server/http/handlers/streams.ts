/**
 * The two event streams of a session (WHATWG HTML §9.2, the contract's stream mechanics): board
 * activity (`/events`) and the live cross-round summary (`/summary`). Both replay from the store, so a
 * client that reconnects with `Last-Event-ID` gets every later event exactly once; the first event of
 * each response carries `retry: 3000`; the stream closes after the terminal event unless a follow-up
 * run is in progress; `finite=true` sends what is recorded and closes.
 * @module
 */
import type { components } from '../../../generated/openapi.js';
import type { Handler, HandlerContext } from '../../ports/handlers.js';
import type { StreamName } from '../../ports/records.js';
import { ProblemError } from '../../core/problems.js';
import { isActive } from '../../domain/sessions/lifecycle.js';
import { requireSession } from '../../domain/sessions/resource.js';

type SessionStreamEvent = components['schemas']['SessionStreamEvent'];
type SessionSummaryStreamEvent = components['schemas']['SessionSummaryStreamEvent'];

/** Reconnect after 3 seconds (the contract's stream mechanics). */
export const retryMs = 3000;

const terminalEvents: Readonly<Record<StreamName, readonly string[]>> = {
  events: ['session.complete', 'session.failed', 'session.cancelled'],
  summary: ['summary.final'],
};

/** The position to resume after: `Last-Event-ID`, capped at the last recorded event. */
function resumeAfter(lastEventId: string | undefined, lastSeq: number): number {
  if (lastEventId === undefined || lastEventId.trim() === '') {
    return 0;
  }
  if (!/^\d{1,19}$/.test(lastEventId.trim())) {
    throw new ProblemError(400, 'Last-Event-ID must be the decimal id of an event of this stream.', {
      errors: [{ pointer: '#/header/Last-Event-ID', detail: 'must be a decimal number' }],
    });
  }
  // An id beyond the last event resumes at the next new event.
  return Math.min(Number(lastEventId.trim()), lastSeq);
}

interface WireEvent {
  event: string;
  id: string;
  retry?: number;
  data: string;
}

async function* recordedEvents(
  context: HandlerContext,
  sessionId: string,
  stream: StreamName,
  after: number,
  finite: boolean,
): AsyncGenerator<WireEvent> {
  const { store, changes } = context.services;
  const workspaceId = context.workspace.id;
  let last = after;
  let first = true;
  while (!context.signal.aborted) {
    // Taken before reading, so that an event appended in between wakes the wait below.
    const changed = changes.next(sessionId, context.signal);
    const row = store.sessions.get(workspaceId, sessionId);
    if (row === undefined) {
      return;
    }
    const events = store.streamEvents.after(sessionId, stream, last);
    for (const [index, recorded] of events.entries()) {
      yield {
        event: recorded.event,
        id: String(recorded.seq),
        ...(first ? { retry: retryMs } : {}),
        data: recorded.data,
      };
      first = false;
      last = recorded.seq;
      const newest = index === events.length - 1;
      if (terminalEvents[stream].includes(recorded.event) && newest && !isActive(row.session.status)) {
        return;
      }
    }
    if (
      finite ||
      (events.length === 0 && !isActive(row.session.status) && store.streamEvents.lastSeq(sessionId, stream) > 0)
    ) {
      return;
    }
    await changed;
  }
}

function lastEventIdOf(headers: { 'Last-Event-ID'?: string }): string | undefined {
  return headers['Last-Event-ID'];
}

export const streamSessionEvents: Handler<'streamSessionEvents'> = ({ path, query, headers }, context) => {
  const row = requireSession(context, path.id);
  const after = resumeAfter(lastEventIdOf(headers), context.services.store.streamEvents.lastSeq(row.id, 'events'));
  return {
    status: 200,
    stream: recordedEvents(
      context,
      row.id,
      'events',
      after,
      query.finite ?? false,
    ) as AsyncIterable<SessionStreamEvent>,
  };
};

export const streamSessionSummary: Handler<'streamSessionSummary'> = ({ path, query, headers }, context) => {
  const row = requireSession(context, path.id);
  const after = resumeAfter(lastEventIdOf(headers), context.services.store.streamEvents.lastSeq(row.id, 'summary'));
  return {
    status: 200,
    stream: recordedEvents(
      context,
      row.id,
      'summary',
      after,
      query.finite ?? false,
    ) as AsyncIterable<SessionSummaryStreamEvent>,
  };
};
