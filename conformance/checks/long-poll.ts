/**
 * Long-polling (seed "What the service does" 5): `wait_ms` answers early on a change and otherwise holds
 * for its bound. Timings are real milliseconds derived from the target's time scale; on a target whose
 * clock can be changed the checks run it at real speed, so a bound is long enough to measure.
 * @module
 */
import { discard, marker, readSession, type SessionBody, startBodyA, startSession } from '../harness/sessions.js';
import { delay } from '../harness/http.js';
import { expectProblem } from './problem-shape.js';
import { defineCheck } from './types.js';

function changed(before: SessionBody, after: SessionBody): boolean {
  return before['status'] !== after['status'] || before['v4_phase'] !== after['v4_phase'] || before['current_round'] !== after['current_round'];
}

export const earlyReturn = defineCheck({
  name: 'long-poll.early-return',
  category: 'long-poll',
  title: 'wait_ms answers as soon as the session changes',
  requirements: ['POLL-001'],
  preconditions: ['live'],
  phase: 'exclusive',
  async run(ctx) {
    await ctx.clock.withScale(1, async () => {
      const scale = ctx.clock.scale();
      const waitMs = Math.min(60_000, Math.floor(8_000 * scale));
      const boundMs = ctx.clock.realMs(waitMs);
      if (boundMs < 1_000) {
        ctx.skip('POLL-001', `the target's clock runs too fast (time scale ${scale}) to tell an early answer from the bound`);
        return;
      }
      const session = await startSession(ctx.http, ctx.contract, startBodyA(ctx.target.synths, marker('long-poll'), 3));
      const { session: before } = await readSession(ctx.http, session.id);
      const started = Date.now();
      const poll = readSession(ctx.http, session.id, { wait_ms: waitMs });
      // The suite causes the change itself, so the answer has something to return early for.
      const settled = await Promise.race([poll.then(() => true), delay(300, ctx.signal).then(() => false)]);
      if (!settled) {
        await ctx.http.post(`/v1/sessions/${session.id}/cancel`, {});
      }
      const { exchange, session: after } = await poll;
      const elapsed = Date.now() - started;
      ctx.expect(
        'POLL-001',
        changed(before, after) && elapsed < boundMs * 0.75,
        { kind: 'timing', message: `wait_ms=${waitMs} answered after ${elapsed} ms ${changed(before, after) ? 'with' : 'without'} a change (bound ${Math.round(boundMs)} ms)`, expected: `a changed session well before ${Math.round(boundMs)} ms`, got: { elapsedMs: elapsed, status: after['status'] }, evidence: exchange },
        `wait_ms=${waitMs} answered after ${elapsed} ms with the change (status ${String(after['status'])})`,
      );
      await discard(ctx.http, session.id);
    });
  },
});

export const bound = defineCheck({
  name: 'long-poll.bound',
  category: 'long-poll',
  title: 'wait_ms on an unchanging session holds for its bound',
  requirements: ['POLL-002'],
  preconditions: ['live'],
  phase: 'exclusive',
  async run(ctx) {
    await ctx.clock.withScale(1, async () => {
      const session = await startSession(ctx.http, ctx.contract, startBodyA(ctx.target.synths, marker('long-poll bound'), 1));
      await ctx.http.post(`/v1/sessions/${session.id}/cancel`, {});
      const waitMs = Math.min(60_000, Math.max(1, Math.floor(1_500 * ctx.clock.scale())));
      const boundMs = ctx.clock.realMs(waitMs);
      const started = Date.now();
      const { exchange } = await readSession(ctx.http, session.id, { wait_ms: waitMs });
      const elapsed = Date.now() - started;
      const early = elapsed < boundMs * 0.9 - 20;
      ctx.expect(
        'POLL-002',
        !early && elapsed <= boundMs + 1_500,
        { kind: 'timing', message: `wait_ms=${waitMs} on a cancelled session answered after ${elapsed} ms`, expected: `about ${Math.round(boundMs)} ms`, got: elapsed, evidence: exchange },
        `wait_ms=${waitMs} on a cancelled session answered after ${elapsed} ms (bound ${Math.round(boundMs)} ms)`,
      );
    });
  },
});

export const maxWait = defineCheck({
  name: 'long-poll.max',
  category: 'long-poll',
  title: 'wait_ms above 60000 is 400 invalid-request',
  requirements: ['POLL-003'],
  preconditions: [],
  async run(ctx) {
    const exchange = await ctx.http.get('/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E', { query: { wait_ms: 60_001 } });
    expectProblem(ctx, 'POLL-003', exchange, 400, 'invalid-request', 'wait_ms=60001');
  },
});

export const longPollChecks = [maxWait, earlyReturn, bound];
