/**
 * The live cross-round summary stream (seed "Events › Server-sent event stream of a session"), read with
 * a real EventSource client to its `summary.final`, then resumed from its first event.
 * @module
 */
import { mediaTypeOf } from '../harness/exchange.js';
import { readEventStream, type StreamReading } from '../harness/event-stream.js';
import { endsByItself, startMarkedSession } from '../harness/sessions.js';
import { dataSchemaOf } from '../harness/validate-exchange.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';
import { eventSchemaPointer } from './sse.js';

const check = checksOf('summary-stream');

const names = ['summary.update', 'summary.final'];
const rounds = 2;

function read(ctx: CheckContext, id: string, lastEventId?: string): Promise<StreamReading> {
  return readEventStream({
    url: ctx.http.url(`/v1/sessions/${id}/summary`),
    authorization: ctx.http.authorization(),
    log: ctx.http.config.log,
    check: ctx.name,
    eventNames: names,
    terminal: ['summary.final'],
    timeoutMs: ctx.timeouts.sessionMs,
    signal: ctx.signal,
    ...(lastEventId === undefined ? {} : { lastEventId }),
  });
}

/** The data members that break the event's schema, per event. */
function badData(ctx: CheckContext, reading: StreamReading): unknown[] {
  const pointer = eventSchemaPointer(ctx.contract, '/v1/sessions/x/summary');
  return reading.events.flatMap((event) => {
    const data = dataSchemaOf(ctx.contract, pointer, event.type);
    try {
      const result =
        data === undefined
          ? { valid: false, errors: [] }
          : ctx.contract.validator.validate(data, JSON.parse(event.data));
      return result.valid
        ? []
        : [{ event: event.type, errors: result.errors.map((error) => `${error.instancePath} ${error.message ?? ''}`) }];
    } catch {
      return [{ event: event.type, errors: ['data is not JSON'] }];
    }
  });
}

export const summaryRun = check('run', ['SUMM-001', 'SUMM-002', 'SUMM-003'], {
  title: 'The live summary streams a round at a time, ends with its final, and resumes',
  preconditions: ['live'],
  async run(ctx) {
    const session = await startMarkedSession(ctx, 'summary', rounds);
    const reading = await read(ctx, session.id);
    const first = reading.connections[0]?.exchange;
    const evidence = reading.connections.map((connection) => connection.exchange);
    const isStream =
      first?.response?.status === 200 && mediaTypeOf(first.response.headers['content-type']) === 'text/event-stream';
    const bad = badData(ctx, reading);
    ctx.expect(
      'SUMM-001',
      isStream && reading.events.length > 0 && bad.length === 0,
      {
        kind: isStream ? 'schema' : 'media-type',
        message: isStream
          ? 'the summary stream sent no events, or data the contract does not describe'
          : 'the summary stream did not open as text/event-stream',
        expected: 'text/event-stream with summary events matching the contract',
        got: isStream
          ? bad
          : { status: first?.response?.status, contentType: first?.response?.headers['content-type'] },
        evidence,
      },
      `${reading.events.length} summary events matching the contract`,
    );

    const updates = reading.events
      .filter((event) => event.type === 'summary.update')
      .map((event) => (JSON.parse(event.data) as { round?: unknown }).round);
    const finals = reading.events.filter((event) => event.type === 'summary.final');
    const inOrder =
      updates.length >= rounds &&
      updates.every((round, index) => index === 0 || (round as number) >= (updates[index - 1] as number)) &&
      Array.from({ length: rounds }, (_, index) => index + 1).every((round) => updates.includes(round));
    const ended =
      finals.length === 1 &&
      reading.events.at(-1)?.type === 'summary.final' &&
      (await endsByItself(ctx, `/v1/sessions/${session.id}/summary`));
    ctx.expect(
      'SUMM-002',
      inOrder && ended,
      {
        kind: 'sequence',
        message:
          'the summary stream missed a round, went out of order, or did not end with one summary.final and close',
        expected: { updates: `rounds 1 to ${rounds} in order`, last: 'summary.final', closes: true },
        got: { updates, events: reading.events.map((event) => event.type) },
        evidence,
      },
      `updates for rounds ${updates.join(', ')}, then summary.final, then closed`,
    );

    const from = reading.events[0]?.lastEventId;
    if (from === undefined || from === '') {
      ctx.skip('SUMM-003', 'the summary stream sent no event id to resume from');
      return;
    }
    const resumed = await read(ctx, session.id, from);
    const expected = reading.events.slice(1).map((event) => `${event.lastEventId}:${event.type}`);
    const got = resumed.events.map((event) => `${event.lastEventId}:${event.type}`);
    ctx.expect(
      'SUMM-003',
      JSON.stringify(got) === JSON.stringify(expected),
      {
        kind: 'sequence',
        message: `resumed from id ${from}, the stream lost or repeated events`,
        expected,
        got,
        evidence: resumed.connections.map((connection) => connection.exchange),
      },
      `resumed from id ${from}: the ${got.length} later events, none repeated`,
    );
  },
});

export const summaryStreamChecks = [summaryRun];
