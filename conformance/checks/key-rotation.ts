/**
 * Key rotation (seed "Authentication" 4, "Limits"): a key the test control provisions is rotated, and the
 * target's clock is jumped to just before and just after the end of the 24-hour grace. It changes the
 * clock, so it runs alone.
 * @module
 */
import { provisionKey, rotateKey } from '../harness/key-control.js';
import { discard, marker, startBodyA, startSession } from '../harness/sessions.js';
import { expectProblem, expectStatus, statusOf } from './problem-shape.js';
import { checksOf } from './define.js';

const check = checksOf('key-rotation');

const graceMs = 24 * 60 * 60 * 1000;
/** How far before and after the end of the grace the keys are tried (target time). */
const marginMs = 10 * 60 * 1000;

export const rotationGrace = check('grace', ['KROT-001', 'KROT-002', 'KROT-003'], {
  title: 'The old key works for 24 hours after rotation, then 401',
  preconditions: ['live', 'time-control'],
  phase: 'exclusive',
  async run(ctx) {
    const all = ['KROT-001', 'KROT-002', 'KROT-003'];
    if (!ctx.clock.fits(graceMs + marginMs, ctx.timeouts.sessionMs)) {
      all.forEach((id) => ctx.skip(id, "24 hours of the target's clock do not pass within the session timeout"));
      return;
    }
    const old = await provisionKey(ctx);
    if (typeof old === 'string') {
      all.forEach((id) => ctx.skip(id, old));
      return;
    }
    const started = await startSession(old.http, ctx.contract, startBodyA(ctx.target.synths, marker('rotation'), 1));
    await discard(old.http, started.id);
    const rotated = await rotateKey(ctx, old.apiKey);
    if (typeof rotated === 'string') {
      all.forEach((id) => ctx.skip(id, rotated));
      return;
    }
    const path = `/v1/sessions/${started.id}`;
    const fresh = await rotated.http.get(path);
    expectStatus(
      ctx,
      'KROT-003',
      fresh,
      200,
      `the new key read the old key's session with ${statusOf(fresh)}`,
      "the new key reads the old key's session at once",
    );
    const atOnce = await old.http.get(path);
    expectStatus(
      ctx,
      'KROT-001',
      atOnce,
      200,
      `the old key answered ${statusOf(atOnce)} right after the rotation`,
      'the old key works right after the rotation',
    );
    await ctx.clock.elapse(graceMs - marginMs, ctx.signal);
    const late = await old.http.get(path);
    expectStatus(
      ctx,
      'KROT-001',
      late,
      200,
      `the old key answered ${statusOf(late)} ten minutes before the end of its grace`,
      'the old key still works 23 h 50 min after the rotation',
    );
    await ctx.clock.elapse(2 * marginMs, ctx.signal);
    expectProblem(
      ctx,
      'KROT-002',
      await old.http.get(path),
      401,
      'unauthorized',
      'the old key 24 h 10 min after the rotation',
    );
    const after = await rotated.http.get(path);
    expectStatus(
      ctx,
      'KROT-003',
      after,
      200,
      `the new key answered ${statusOf(after)} after the old key's grace`,
      "the new key outlives the old key's grace",
    );
  },
});

export const keyRotationChecks = [rotationGrace];
