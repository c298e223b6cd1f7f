/**
 * Where the client-team controls meet each request: a queued fault for its operation is applied before
 * anything else runs (even the key check), and every answer is written to the journal. Requests to the
 * control planes themselves are neither faulted nor journalled.
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isoAt } from '../server/core/clock.js';
import { apiVersionHeader } from '../server/domain/api-version.js';
import type { Services } from '../server/ports/services.js';
import type { Journal } from './journal.js';
import type { NextFaults, QueuedFault } from './next-faults.js';

export const clientControlsPath = '/_controls/v1';

const isControl = (url: string): boolean => /^\/_(controls|test)(\/|\?|$)/.test(url);

/** The seconds a faulted `429` or `503` asks the client to wait (RFC 9110 §10.2.3). */
export const faultRetryAfterSeconds = 1;

function operationOf(request: FastifyRequest): string | null {
  return (request.routeOptions.config as { route?: { operationId?: string } }).route?.operationId ?? null;
}

export function registerJournalAndFaults(
  app: FastifyInstance,
  services: () => Services,
  journal: Journal,
  faults: NextFaults,
): void {
  const closing = new AbortController();
  app.addHook('onClose', (_instance, done) => {
    closing.abort();
    done();
  });
  const arrivals = new WeakMap<FastifyRequest, { at: number; started: number }>();

  function record(request: FastifyRequest, status: number, fault: QueuedFault | undefined): void {
    const arrival = arrivals.get(request);
    journal.record({
      request_id: request.id,
      method: request.method,
      path: request.url.split('?')[0] ?? request.url,
      operation_id: operationOf(request),
      status,
      time: isoAt(arrival?.at ?? services().clock.now()),
      duration_ms: arrival === undefined ? 0 : Math.round(performance.now() - arrival.started),
      fault: fault?.id ?? null,
    });
    // Recorded once: a hijacked answer still reaches `onResponse` when it finishes.
    arrivals.delete(request);
  }

  /** Answers with the status's problem, bypassing the handler and the contract's response check. */
  function answer(request: FastifyRequest, reply: FastifyReply, fault: QueuedFault, status: number): void {
    const { problems, versions } = services();
    const body = JSON.stringify(
      problems.body(status, `A fault queued by the client controls (${fault.id}) answered this request.`),
    );
    const headers: Record<string, string> = {
      'content-type': 'application/problem+json',
      'content-length': String(Buffer.byteLength(body)),
      [apiVersionHeader.toLowerCase()]: versions.current,
    };
    if (status === 429 || status === 503) {
      headers['retry-after'] = String(faultRetryAfterSeconds);
    }
    void reply.hijack();
    reply.raw.writeHead(status, headers);
    reply.raw.end(body);
    record(request, status, fault);
  }

  app.addHook('onRequest', async (request, reply) => {
    if (isControl(request.url)) {
      return;
    }
    arrivals.set(request, { at: services().clock.now(), started: performance.now() });
    const operation = operationOf(request);
    const fault = operation === null ? undefined : faults.take(operation);
    if (fault === undefined) {
      return;
    }
    if (fault.delay_ms > 0) {
      // A delay still waiting when the server closes ends with it, so `close()` leaves no timer behind.
      const waited = await sleep(fault.delay_ms, true, { signal: closing.signal }).catch(() => false);
      if (!waited) {
        return;
      }
    }
    if (fault.drop) {
      void reply.hijack();
      request.raw.socket.destroy();
      record(request, 0, fault);
      return;
    }
    if (fault.status !== null) {
      answer(request, reply, fault, fault.status);
      return;
    }
    faulted.set(request, fault);
  });

  const faulted = new WeakMap<FastifyRequest, QueuedFault>();
  app.addHook('onResponse', (request, reply, done) => {
    if (!isControl(request.url) && arrivals.has(request)) {
      record(request, reply.statusCode, faulted.get(request));
    }
    done();
  });
}
