/**
 * The session event stream, read with a real EventSource client: event names and data, increasing ids,
 * the terminal event's outcomes_url, resumption with Last-Event-ID, and finite mode.
 * @module
 */
import { childPointer, resolve } from '../../src/contract/pointer.js';
import { parseEventStream, type ParsedEvent } from '../../src/contract/sse.js';
import { type Contract, pathRelativeTo } from '../harness/contract.js';
import { mediaTypeOf } from '../harness/exchange.js';
import { TransportError } from '../harness/http.js';
import { readEventStream, type StreamReading } from '../harness/event-stream.js';
import { discard, endsByItself, startMarkedSession, waitUntilEnded } from '../harness/sessions.js';
import { dataSchemaOf } from '../harness/validate-exchange.js';
import type { CheckContext } from '../harness/check.js';
import { atRealSpeed, checksOf } from './define.js';

/** A stream is of a session the check starts: the checks need a target that keeps state. */
const check = checksOf('sse', { preconditions: ['live'] });

const terminalEvents = ['session.complete', 'session.failed', 'session.cancelled'];

/** The pointer of the per-event schema of the `text/event-stream` answer of `GET path` (a session's events or summary). */
export function eventSchemaPointer(contract: Contract, path = '/v1/sessions/x/events'): string {
  const operation = contract.operation('GET', path)!;
  const response = resolve(contract.document, childPointer(operation.pointer, 'responses', '200'));
  return childPointer(
    resolve(contract.document, childPointer(response.pointer, 'content', 'text/event-stream')).pointer,
    'schema',
  );
}

/** The event names the contract lists for the session stream (the `event` const of each branch). */
export function streamEventNames(contract: Contract): string[] {
  const schema = resolve<{ oneOf?: unknown[] }>(contract.document, eventSchemaPointer(contract));
  return (schema.node.oneOf ?? []).flatMap((_, index) => {
    const branch = resolve<{ properties?: { event?: { const?: string } } }>(
      contract.document,
      childPointer(schema.pointer, 'oneOf', index),
    );
    const name = branch.node.properties?.event?.const;
    return name === undefined ? [] : [name];
  });
}

export function openStream(
  ctx: CheckContext,
  id: string,
  options: { cutAfterEvents?: number; timeoutMs?: number } = {},
): Promise<StreamReading> {
  return readEventStream({
    url: ctx.http.url(`/v1/sessions/${id}/events`),
    authorization: ctx.http.authorization(),
    log: ctx.http.config.log,
    check: ctx.name,
    eventNames: streamEventNames(ctx.contract),
    terminal: terminalEvents,
    timeoutMs: ctx.timeouts.sessionMs,
    signal: ctx.signal,
    ...options,
  });
}

export function sentEventsOf(reading: StreamReading): ParsedEvent[] {
  return reading.connections.flatMap((connection) => parseEventStream(connection.exchange.response?.body ?? '').events);
}

export const streamRun = check('stream-run', ['SSE-001', 'SSE-002', 'SSE-003', 'SSE-005', 'SSE-006'], {
  title: 'A session stream read to its end with EventSource',
  async run(ctx) {
    const session = await startMarkedSession(ctx, 'stream', 2);
    const reading = await openStream(ctx, session.id);
    const first = reading.connections[0]?.exchange;
    const evidence = reading.connections.map((connection) => connection.exchange);
    const names = new Set(streamEventNames(ctx.contract));
    const events = sentEventsOf(reading);
    const isStream =
      first?.response?.status === 200 && mediaTypeOf(first.response.headers['content-type']) === 'text/event-stream';
    const unknown = events.filter((event) => !names.has(event.event)).map((event) => event.event);
    ctx.expect(
      'SSE-001',
      isStream && unknown.length === 0,
      {
        kind: isStream ? 'schema' : 'media-type',
        message: isStream
          ? 'the stream sent event names the contract does not list'
          : 'the stream did not open as text/event-stream',
        expected: [...names],
        got: isStream
          ? unknown
          : { status: first?.response?.status, contentType: first?.response?.headers['content-type'] },
        evidence,
      },
      `${events.length} events, every name listed by the contract`,
    );

    const badData = events.flatMap((event) => {
      const pointer = dataSchemaOf(ctx.contract, eventSchemaPointer(ctx.contract), event.event);
      if (pointer === undefined) {
        return [];
      }
      try {
        const result = ctx.contract.validator.validate(pointer, JSON.parse(event.data));
        return result.valid
          ? []
          : [
              {
                event: event.event,
                id: event.id,
                errors: result.errors.map((error) => `${error.instancePath} ${error.message ?? ''}`),
              },
            ];
      } catch {
        return [{ event: event.event, id: event.id, errors: ['data is not JSON'] }];
      }
    });
    ctx.expect(
      'SSE-002',
      badData.length === 0 && events.length > 0,
      {
        kind: 'schema',
        message: events.length === 0 ? 'the stream sent no events' : 'event data does not match its schema',
        expected: 'data matching each event schema',
        got: badData,
        evidence,
      },
      `the data of ${events.length} events matches their schemas`,
    );

    const ids = events.map((event) => event.id);
    const numeric = ids.every((id) => id !== undefined && /^[1-9]\d*$/.test(id));
    const increasing = numeric && ids.every((id, index) => index === 0 || BigInt(id!) > BigInt(ids[index - 1]!));
    ctx.expect(
      'SSE-003',
      numeric && increasing && ids[0] === '1',
      {
        kind: 'sequence',
        message: 'event ids are not decimal, strictly increasing from 1',
        expected: '1, 2, 3, …',
        got: ids,
        evidence,
      },
      `ids ${ids[0]} to ${ids.at(-1)} strictly increasing`,
    );

    const terminal = events.find((event) => terminalEvents.includes(event.event));
    if (reading.ended !== 'terminal' || terminal === undefined) {
      ctx.fail('SSE-006', {
        kind: 'sequence',
        message: `the stream ended (${reading.ended}) without a terminal event`,
        expected: terminalEvents,
        got: events.map((event) => event.event),
        evidence,
      });
      ctx.fail('SSE-005', {
        kind: 'sequence',
        message: 'no session.complete arrived',
        expected: 'session.complete',
        got: events.map((event) => event.event),
        evidence,
      });
      return;
    }
    if (terminal.event !== 'session.complete') {
      ctx.skip('SSE-005', `the session ended with ${terminal.event}, not session.complete`);
    } else {
      const outcomesUrl = (JSON.parse(terminal.data) as { outcomes_url?: unknown }).outcomes_url;
      if (typeof outcomesUrl !== 'string') {
        ctx.fail('SSE-005', {
          kind: 'schema',
          message: 'session.complete carries no outcomes_url',
          expected: 'outcomes_url',
          got: terminal.data,
          evidence,
        });
      } else {
        const outcomes = await ctx.http.get(
          pathRelativeTo(ctx.target.baseUrl, new URL(outcomesUrl, ctx.target.baseUrl).toString()),
        );
        ctx.expect(
          'SSE-005',
          outcomes.response?.status === 200 && outcomesUrl.includes(session.id),
          {
            kind: 'status',
            message: `outcomes_url ${outcomesUrl} did not answer 200 for this session`,
            expected: 200,
            got: outcomes.response?.status,
            evidence: [...evidence, outcomes],
          },
          `outcomes_url answered 200`,
        );
      }
    }
    const rounds = events
      .filter((event) => event.event === 'round.complete')
      .map((event) => (JSON.parse(event.data) as { round?: number }).round);
    const roundsInOrder = rounds.every((round, index) => round === index + 1);
    const closes = await endsByItself(ctx, `/v1/sessions/${session.id}/events`);
    ctx.expect(
      'SSE-006',
      events[0]?.retry !== undefined && roundsInOrder && events.at(-1) === terminal && closes,
      {
        kind: 'sequence',
        message: 'the stream lacks a retry hint, announces rounds out of order, or stays open after its terminal event',
        expected: { firstRetry: 'present', rounds: '1, 2, …', closesAfterTerminal: true },
        got: {
          firstRetry: events[0]?.retry ?? null,
          rounds,
          lastEvent: events.at(-1)?.event,
          closesAfterTerminal: closes,
        },
        evidence,
      },
      `retry ${events[0]?.retry} first, rounds ${rounds.join(', ')}, closed after ${terminal.event}`,
    );
  },
});

export const resume = check('resume', ['SSE-004'], {
  title: 'A reconnect with Last-Event-ID loses and repeats nothing',
  async run(ctx) {
    const session = await startMarkedSession(ctx, 'resume', 2);
    const reading = await openStream(ctx, session.id, { cutAfterEvents: 2 });
    const evidence = reading.connections.map((connection) => connection.exchange);
    const second = reading.connections[1];
    const cutAt = reading.events.filter((event) => event.connection === 0).at(-1)?.lastEventId;
    if (second === undefined) {
      ctx.fail('SSE-004', {
        kind: 'sequence',
        message: `the client did not reconnect after the cut (${reading.ended}: ${reading.errors.join('; ')})`,
        expected: 'a second connection',
        got: reading.connections.length,
        evidence,
      });
      return;
    }
    await waitUntilEnded(ctx, session.id);
    const whole = await ctx.http.get(`/v1/sessions/${session.id}/events`, {
      query: { finite: 'true' },
      timeoutMs: ctx.pace.wait(10_000),
    });
    const recorded = parseEventStream(whole.response?.body ?? '').events.map((event) => `${event.id}:${event.event}`);
    const received = reading.events.map((event) => `${event.lastEventId}:${event.type}`);
    ctx.expect(
      'SSE-004',
      second.lastEventIdSent === cutAt &&
        JSON.stringify(received) === JSON.stringify(recorded.slice(0, received.length)) &&
        reading.ended === 'terminal',
      {
        kind: 'sequence',
        message: 'the resumed stream lost or repeated events',
        expected: { lastEventIdSent: cutAt, events: recorded },
        got: { lastEventIdSent: second.lastEventIdSent ?? null, events: received, ended: reading.ended },
        evidence: [...evidence, whole],
      },
      `reconnected with Last-Event-ID ${cutAt}; ${received.length} events, none lost or repeated`,
    );
  },
});

export const finite = check('finite', ['SSE-007'], {
  title: 'finite=true sends what is recorded and closes',
  // At real speed a ten-round session is still running when the finite stream must already have closed.
  phase: 'exclusive',
  run: atRealSpeed(async (ctx) => {
    const session = await startMarkedSession(ctx, 'finite', 10);
    for (const moment of ['while running', 'once cancelled']) {
      if (moment === 'once cancelled') {
        await ctx.http.post(`/v1/sessions/${session.id}/cancel`);
      }
      try {
        const exchange = await ctx.http.get(`/v1/sessions/${session.id}/events`, {
          query: { finite: 'true' },
          timeoutMs: ctx.pace.wait(3_000),
        });
        const events = parseEventStream(exchange.response?.body ?? '').events;
        const ended = moment === 'while running' || terminalEvents.includes(events.at(-1)?.event ?? '');
        ctx.expect(
          'SSE-007',
          exchange.response?.status === 200 && ended,
          {
            kind: 'sequence',
            message: `finite=true ${moment}: ${events.length} events, last ${events.at(-1)?.event ?? 'none'}`,
            expected: 'a closed stream, ending with the terminal event once the session ended',
            got: events.map((event) => event.event),
            evidence: exchange,
          },
          `finite=true ${moment}: ${events.length} events, then closed`,
        );
      } catch (error) {
        if (!(error instanceof TransportError)) {
          throw error;
        }
        ctx.fail('SSE-007', {
          kind: 'timing',
          message: `finite=true ${moment}: the stream stayed open`,
          expected: 'closed within 3 s',
          got: error.exchange.error,
          evidence: error.exchange,
        });
      }
    }
    await discard(ctx.http, session.id);
  }),
});

export const sseChecks = [streamRun, resume, finite];
