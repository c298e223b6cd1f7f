/**
 * Key rotation with keys the implementer rotated beforehand (seed "Authentication" 4, "Limits": old key
 * validity after rotation, 24 hours), for a target whose test control cannot rotate a key or move its
 * clock: the API has no operation that rotates one. `--rotated-key OLD=NEW` names a key rotated less than
 * 23 hours ago and the key the rotation issued; `--expired-key` a key rotated more than 24 hours ago.
 * What the keys show holds at any moment of their grace, so it is checked in real time.
 * @module
 */
import { discard, marker, startBodyA, startSession } from '../harness/sessions.js';
import { expectProblem, statusOf } from './problem-shape.js';
import { checksOf } from './define.js';

const check = checksOf('key-rotation');

const noRotatedKey = 'no key rotated within the last 23 hours was given (--rotated-key)';

export const rotatedKeys = check('given-keys', ['KROT-001', 'KROT-002', 'KROT-003'], {
  title: 'Keys rotated beforehand: the old key works within its grace, the expired one is 401',
  preconditions: ['live'],
  async run(ctx) {
    const { rotatedKey, expiredKey } = ctx.profile;
    if (rotatedKey === undefined && expiredKey === undefined && ctx.target.control !== undefined && ctx.clock.known) {
      // key-rotation.grace rotates a key of its own and moves the clock through the grace: nothing to add.
      return;
    }
    if (expiredKey === undefined) {
      ctx.skip('KROT-002', 'no key whose rotation is more than 24 hours past was given (--expired-key)');
    } else {
      const expired = ctx.http.as({ kind: 'bearer', key: expiredKey });
      expectProblem(
        ctx,
        'KROT-002',
        await expired.get('/v1/sessions', { query: { limit: 1 } }),
        401,
        'unauthorized',
        'the key rotated more than 24 hours ago',
      );
    }
    if (rotatedKey === undefined) {
      ['KROT-001', 'KROT-003'].forEach((id) => ctx.skip(id, noRotatedKey));
      return;
    }
    const [old, fresh] = [rotatedKey.old, rotatedKey.fresh].map((key) => ctx.http.as({ kind: 'bearer', key }));
    const started = await startSession(old!, ctx.contract, startBodyA(ctx.target.synths, marker('rotated key'), 1));
    await discard(old!, started.id);
    const path = `/v1/sessions/${started.id}`;
    const [byOld, byFresh] = [await old!.get(path), await fresh!.get(path)];
    ctx.expect(
      'KROT-001',
      statusOf(byOld) === 200,
      {
        kind: 'status',
        message: `the rotated key, within its grace, answered ${statusOf(byOld)}`,
        expected: 200,
        got: statusOf(byOld),
        evidence: byOld,
      },
      'the rotated key starts and reads a session within its grace',
    );
    ctx.expect(
      'KROT-003',
      statusOf(byFresh) === 200,
      {
        kind: 'status',
        message: `the key the rotation issued read the old key's session with ${statusOf(byFresh)}`,
        expected: 200,
        got: statusOf(byFresh),
        evidence: byFresh,
      },
      "the key the rotation issued reads the old key's session",
    );
  },
});

export const givenKeyRotationChecks = [rotatedKeys];
