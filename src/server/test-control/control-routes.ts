/**
 * The control plane's routes (docs/conformance.md "Time control and fault switches"): the clock, read,
 * sped up or slowed down, and jumped forward; the fault switches, read and set. They are outside the
 * contract, answer JSON, and refuse what they cannot do with problems of the catalogue.
 * @module
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isoAt, type ScaledClock } from '../clock.js';
import { parseJsonBody } from '../json-body.js';
import { ProblemError } from '../problems.js';
import type { FaultSwitches } from './fault-switches.js';
import { controlPath } from './http-faults.js';

/** Routes outside the contract: no operation, no key, no response validation against the contract. */
const config = { outsideContract: true };

function invalid(pointer: string, detail: string): ProblemError {
  return new ProblemError(400, detail, { errors: [{ pointer, detail }] });
}

/** The JSON object a PUT carries. */
function objectBody(request: FastifyRequest): Record<string, unknown> {
  const body = Buffer.isBuffer(request.body) && request.body.length > 0 ? parseJsonBody(request.body) : undefined;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('#/body', 'must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function clockState(clock: ScaledClock): { now: string; time_scale: number } {
  return { now: isoAt(clock.now()), time_scale: clock.scale() };
}

function changeClock(clock: ScaledClock, body: Record<string, unknown>): void {
  const { time_scale: scale, advance_ms: advance, ...other } = body;
  const unknown = Object.keys(other)[0];
  if (unknown !== undefined) {
    throw invalid(`#/body/${unknown}`, 'is not a clock setting; send time_scale and/or advance_ms');
  }
  if (scale === undefined && advance === undefined) {
    throw invalid('#/body', 'must have time_scale and/or advance_ms');
  }
  if (scale !== undefined && !(typeof scale === 'number' && scale > 0 && Number.isFinite(scale))) {
    throw invalid('#/body/time_scale', 'must be a positive number');
  }
  if (advance !== undefined && !(typeof advance === 'number' && advance >= 0 && Number.isFinite(advance))) {
    throw invalid('#/body/advance_ms', 'must be a number of milliseconds from 0');
  }
  if (advance !== undefined) {
    clock.advance(advance);
  }
  if (scale !== undefined) {
    clock.setScale(scale);
  }
}

function switchFaults(switches: FaultSwitches, body: Record<string, unknown>): void {
  const { active } = body;
  if (!Array.isArray(active) || active.some((name) => typeof name !== 'string')) {
    throw invalid('#/body/active', 'must be an array of fault names');
  }
  const unknown = switches.set(active as string[]);
  if (unknown.length > 0) {
    throw new ProblemError(
      400,
      `Unknown faults: ${unknown.join(', ')}. GET ${controlPath}/faults lists the available ones.`,
      {
        errors: unknown.map((name) => ({
          pointer: `#/body/active/${active.indexOf(name)}`,
          detail: `${JSON.stringify(name)} is not a fault of the catalogue`,
        })),
      },
    );
  }
}

export function registerControlRoutes(app: FastifyInstance, clock: ScaledClock, switches: FaultSwitches): void {
  const faultState = (): { available: string[]; active: string[] } => ({
    available: switches.available(),
    active: switches.active().map((fault) => fault.name),
  });
  const routes: Record<string, Record<string, (request: FastifyRequest) => unknown>> = {
    [`${controlPath}/clock`]: {
      GET: () => clockState(clock),
      PUT(request) {
        changeClock(clock, objectBody(request));
        return clockState(clock);
      },
    },
    [`${controlPath}/faults`]: {
      GET: faultState,
      PUT(request) {
        switchFaults(switches, objectBody(request));
        return faultState();
      },
    },
  };
  for (const [url, handlers] of Object.entries(routes)) {
    for (const [method, handler] of Object.entries(handlers)) {
      app.route({ method, url, config, handler: async (request) => handler(request) });
    }
    const allow = Object.keys(handlers);
    // Every other method is refused with 405 and `Allow`, like the contract's routes.
    app.route({
      method: app.supportedMethods.filter((method) => !allow.includes(method)),
      url,
      config: { ...config, allow },
      handler: () => {
        throw new Error('a method that is not offered reached its handler');
      },
    });
  }
}
