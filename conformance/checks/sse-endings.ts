/**
 * How a session's event stream ends when the run does not complete (the contract's stream events
 * `session.cancelled` and `session.failed`, designed; the seed lists only the events of a finished run).
 * @module
 */
import { jsonOf } from '../harness/exchange.js';
import { marker, readSession, startBodyA, startMarkedSession, startSession } from '../harness/sessions.js';
import { openStream, sentEventsOf } from './sse.js';
import { statusOf } from './problem-shape.js';
import { checksOf } from './define.js';

/** A stream is of a session the check starts: the checks need a target that keeps state. */
const check = checksOf('sse', { preconditions: ['live'] });

/** Real time the stream of an ended session may take to replay and close, plus the target's pace (harness/pace.ts). */
const endedStreamMs = 15_000;

export const cancelledEnd = check('cancelled-end', ['SSE-008'], {
  title: 'The stream of a cancelled session ends with session.cancelled',
  async run(ctx) {
    const started = await startMarkedSession(ctx, 'stream cancelled', 10);
    const cancelled = await ctx.http.post(`/v1/sessions/${started.id}/cancel`, {});
    if (statusOf(cancelled) !== 200) {
      ctx.skip('SSE-008', `the session ended before it could be cancelled (cancel answered ${statusOf(cancelled)})`);
      return;
    }
    const reading = await openStream(ctx, started.id, {
      timeoutMs: ctx.pace.wait(Math.min(endedStreamMs, ctx.timeouts.sessionMs)),
    });
    const events = sentEventsOf(reading);
    const last = events.at(-1);
    let data: Record<string, unknown> = {};
    try {
      data = JSON.parse(last?.data ?? '{}') as Record<string, unknown>;
    } catch {
      // Left empty: the expectation below reports the data as it came.
    }
    const session = (jsonOf(cancelled) ?? {}) as Record<string, unknown>;
    const reconciled = Number.isInteger(data['credits_charged']) && Number.isInteger(data['credits_refunded']);
    ctx.expect(
      'SSE-008',
      reading.ended === 'terminal' && last?.event === 'session.cancelled' && reconciled,
      {
        kind: 'sequence',
        message: `the stream of a cancelled session ended ${reading.ended === 'terminal' ? 'with' : `by ${reading.ended}, last`} ${last?.event ?? 'no event'}`,
        expected: {
          last: 'session.cancelled',
          data: {
            credits_charged: session['credits_charged'] ?? 'an integer',
            credits_refunded: session['credits_refunded'] ?? 'an integer',
          },
        },
        got: { ended: reading.ended, last: last?.event ?? null, data: last?.data ?? null },
        evidence: [cancelled, ...reading.connections.map((connection) => connection.exchange)],
      },
      `the stream replayed ${events.length} events and ended with session.cancelled, credits reconciled`,
    );
  },
});

/**
 * A title that asks the reference server to fail the run (src/board/failure.ts); other targets run it as
 * a title, and the check skips when the run does not fail.
 */
const failingTitle = (label: string): string => `${marker(label)} [simulate:upstream_error]`;

export const failedEnd = check('failed-end', ['SSE-009'], {
  title: 'The stream of a failed run ends with session.failed',
  async run(ctx) {
    const started = await startSession(ctx.http, ctx.contract, {
      ...startBodyA(ctx.target.synths, marker('stream failed'), 2),
      title: failingTitle('stream failed'),
    });
    const reading = await openStream(ctx, started.id);
    const events = sentEventsOf(reading);
    const last = events.at(-1);
    if (reading.ended === 'terminal' && last?.event !== 'session.failed') {
      const { session } = await readSession(ctx.http, started.id);
      if (session['status'] !== 'failed') {
        ctx.skip(
          'SSE-009',
          `the run ended ${String(session['status'])}: the target offers no way to make a run fail on demand (the reference server fails one whose title holds [simulate:upstream_error])`,
        );
        return;
      }
    }
    let data: Record<string, unknown> = {};
    try {
      data = JSON.parse(last?.data ?? '{}') as Record<string, unknown>;
    } catch {
      // Left empty: the expectation below reports the data as it came.
    }
    ctx.expect(
      'SSE-009',
      reading.ended === 'terminal' &&
        last?.event === 'session.failed' &&
        typeof data['error_code'] === 'string' &&
        typeof data['error_message'] === 'string',
      {
        kind: 'sequence',
        message: `the stream of a failed run ended ${reading.ended === 'terminal' ? 'with' : `by ${reading.ended}, last`} ${last?.event ?? 'no event'}`,
        expected: { last: 'session.failed', data: { error_code: 'a string', error_message: 'a string' } },
        got: { ended: reading.ended, last: last?.event ?? null, data: last?.data ?? null },
        evidence: reading.connections.map((connection) => connection.exchange),
      },
      `the stream ended with session.failed (${String(data['error_code'])})`,
    );
  },
});

export const sseEndingChecks = [cancelledEnd, failedEnd];
