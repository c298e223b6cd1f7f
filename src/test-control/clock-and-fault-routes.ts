/**
 * The control plane's routes (docs/conformance.md "Time control and fault switches"): the clock, read,
 * sped up or slowed down, and jumped forward; the fault switches, read and set. They are outside the
 * contract, answer JSON, and refuse what they cannot do with problems of the catalogue.
 * @module
 */
import type { FastifyInstance } from 'fastify';
import { invalid, objectBody, registerControlRoutes } from '../control-plane/routes.js';
import { isoAt, type ScaledClock } from '../server/core/clock.js';
import { ProblemError } from '../server/core/problems.js';
import type { FaultSwitches } from './fault-switches.js';
import { controlPath } from './http-faults.js';

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

export function registerClockAndFaultRoutes(app: FastifyInstance, clock: ScaledClock, switches: FaultSwitches): void {
  const faultState = (): { available: string[]; active: string[] } => ({
    available: switches.available(),
    active: switches.active().map((fault) => fault.name),
  });
  registerControlRoutes(app, {
    [`${controlPath}/clock`]: {
      GET: { handle: () => clockState(clock) },
      PUT: {
        handle(request) {
          changeClock(clock, objectBody(request));
          return clockState(clock);
        },
      },
    },
    [`${controlPath}/faults`]: {
      GET: { handle: faultState },
      PUT: {
        handle(request) {
          switchFaults(switches, objectBody(request));
          return faultState();
        },
      },
    },
  });
}
