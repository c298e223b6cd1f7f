/**
 * Long-polling (seed "What the service does" 5): `wait_ms` answers early on a change and otherwise holds
 * for its bound. `wait_ms` is wall-clock milliseconds, the client's own wait, whatever the target's time
 * scale (docs/decisions.md "Time and other implementations"). On a target whose clock can be changed the
 * checks run it at real speed, so a target that waited on its own clock would be judged the same.
 * @module
 */
import {
  discard,
  readSession,
  type SessionBody,
  startCancelledSession,
  startConsult,
  startMarkedSession,
} from '../harness/sessions.js';
import { delay } from '../harness/http.js';
import { expectProblem } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { atRealSpeed, checksOf } from './define.js';

/** A poll waits on a session's state: the checks need a target that keeps it. */
const check = checksOf('long-poll', { preconditions: ['live'] });

function changed(before: SessionBody, after: SessionBody): boolean {
  return (
    before['status'] !== after['status'] ||
    before['v4_phase'] !== after['v4_phase'] ||
    before['current_round'] !== after['current_round']
  );
}

/** The most rounds a start may ask for: the longest run, so that a slow target is still running when polled. */
const longestRun = 10;

/**
 * One poll on a fresh session that the suite changes itself (by cancelling it) if the target does not
 * first. A poll that comes back within 300 ms must carry a change, and is then polled again from the new
 * state, since that change may have come before the poll reached the target. A cancel refused as a
 * conflict means the run ended by itself: when that happened before the poll reached the target, nothing
 * was left to change and holding the whole `wait_ms` is right, so such a poll judges nothing
 * (`endedFirst`) unless it came back early with the change.
 */
async function pollAcrossChange(ctx: CheckContext, waitMs: number) {
  const session = await startMarkedSession(ctx, 'long-poll', longestRun);
  let { session: before } = await readSession(ctx.http, session.id);
  for (let quick = 0; ; quick++) {
    const started = Date.now();
    const poll = readSession(ctx.http, session.id, { wait_ms: waitMs });
    const settled = await Promise.race([poll.then(() => true), delay(300, ctx.signal).then(() => false)]);
    const cancelled = settled ? undefined : await ctx.http.post(`/v1/sessions/${session.id}/cancel`, {});
    const { exchange, session: after } = await poll;
    const elapsed = Date.now() - started;
    const early = changed(before, after) && elapsed < waitMs * 0.75;
    if (!settled || !early || quick === 4) {
      await discard(ctx.http, session.id);
      // An ended session may be answered at once without a change: nothing a wait could see is coming.
      const endedUnchanged = settled && !changed(before, after) && hasEnded(after);
      const endedFirst = (cancelled?.response?.status === 409 && !early) || endedUnchanged;
      return { before, after, exchange, elapsed, early, endedFirst };
    }
    before = after;
  }
}

export const earlyReturn = check('early-return', ['POLL-001'], {
  title: 'wait_ms answers as soon as the session changes',
  phase: 'exclusive',
  run: atRealSpeed(async (ctx) => {
    const waitMs = 8_000;
    let poll = await pollAcrossChange(ctx, waitMs);
    for (let tries = 1; poll.endedFirst && tries < 3; tries++) {
      poll = await pollAcrossChange(ctx, waitMs);
    }
    const { before, after, exchange, elapsed } = poll;
    if (poll.endedFirst) {
      ctx.skip(
        'POLL-001',
        `every session (${longestRun} rounds) ended on its own before the poll could wait on it (the target's clock may run faster than real time), so no change was left to answer early for`,
      );
      return;
    }
    ctx.expect(
      'POLL-001',
      poll.early,
      {
        kind: 'timing',
        message: `wait_ms=${waitMs} answered after ${elapsed} ms ${changed(before, after) ? 'with' : 'without'} a change (bound ${waitMs} ms)`,
        expected: `a changed session well before ${waitMs} ms`,
        got: { elapsedMs: elapsed, status: after['status'] },
        evidence: exchange,
      },
      `wait_ms=${waitMs} answered after ${elapsed} ms with the change (status ${String(after['status'])})`,
    );
  }),
});

/** A status after which the run changes no more by itself (seed "States and transitions"). */
const endedStatuses = new Set(['complete', 'failed', 'cancelled', 'reconvened', 'archived']);
const hasEnded = (session: SessionBody): boolean => endedStatuses.has(String(session['status']));

interface BoundPoll {
  elapsed: number;
  changedMeanwhile: boolean;
  exchange: Awaited<ReturnType<typeof readSession>>['exchange'];
}

/** One `wait_ms` poll on `id`, timed, with whether the session's progress moved during it. */
async function timedPoll(ctx: CheckContext, id: string, waitMs: number): Promise<BoundPoll> {
  const { session: before } = await readSession(ctx.http, id);
  const started = Date.now();
  const { exchange, session: after } = await readSession(ctx.http, id, { wait_ms: waitMs });
  return { elapsed: Date.now() - started, changedMeanwhile: changed(before, after), exchange };
}

/** Polls `id` until one poll sees no change (a change may explain an early answer), three tries at most. */
async function pollUntilUnchanged(ctx: CheckContext, id: string, waitMs: number): Promise<BoundPoll | undefined> {
  for (let tries = 0; tries < 3; tries++) {
    const poll = await timedPoll(ctx, id, waitMs);
    if (!poll.changedMeanwhile) {
      return poll;
    }
  }
  return undefined;
}

/**
 * The session POLL-002 holds a poll on: a cancelled one first. A target may answer an ended session at
 * once (no change a wait could see is coming), so then an active one that waits on its client: a consult
 * session between turns, which stays put however fast the target's clock runs; a running board last.
 */
async function pollOnUnchangingSession(ctx: CheckContext, waitMs: number): Promise<BoundPoll | undefined> {
  const ended = await startCancelledSession(ctx, 'long-poll bound', 1);
  const onEnded = await timedPoll(ctx, ended.id, waitMs);
  if (onEnded.elapsed >= waitMs * 0.9 - 20) {
    return onEnded;
  }
  const active = [
    () => startConsult(ctx, ctx.http),
    () => startMarkedSession(ctx, 'long-poll bound, running', longestRun),
  ];
  for (const start of active) {
    const session = await start().catch(() => undefined);
    if (session === undefined) {
      continue;
    }
    try {
      const poll = await pollUntilUnchanged(ctx, session.id, waitMs);
      if (poll !== undefined) {
        return poll;
      }
    } finally {
      await discard(ctx.http, session.id);
    }
  }
  return undefined;
}

export const bound = check('bound', ['POLL-002'], {
  title: 'wait_ms on an unchanging session holds for its bound',
  phase: 'exclusive',
  run: atRealSpeed(async (ctx) => {
    const waitMs = 1_500;
    const poll = await pollOnUnchangingSession(ctx, waitMs);
    if (poll === undefined) {
      ctx.skip(
        'POLL-002',
        'a cancelled session was answered at once (allowed: it will not change), and every active session (a consult one, a running board) changed during each wait, so no poll waited on an unchanging session',
      );
      return;
    }
    const { elapsed, exchange } = poll;
    const early = elapsed < waitMs * 0.9 - 20;
    ctx.expect(
      'POLL-002',
      !early && elapsed <= waitMs + 1_500,
      {
        kind: 'timing',
        message: `wait_ms=${waitMs} on an unchanging session answered after ${elapsed} ms`,
        expected: `about ${waitMs} ms`,
        got: elapsed,
        evidence: exchange,
      },
      `wait_ms=${waitMs} on an unchanging session answered after ${elapsed} ms (bound ${waitMs} ms)`,
    );
  }),
});

export const maxWait = check('max', ['POLL-003'], {
  title: 'wait_ms above 60000 is 400 invalid-request',
  // Refused before any session is read: a mock judges it too.
  preconditions: [],
  async run(ctx) {
    const exchange = await ctx.http.get('/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E', { query: { wait_ms: 60_001 } });
    expectProblem(ctx, 'POLL-003', exchange, 400, 'invalid-request', 'wait_ms=60001');
  },
});

export const longPollChecks = [maxWait, earlyReturn, bound];
