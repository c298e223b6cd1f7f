/**
 * The session lifecycle (seed "What the service does", "States and transitions"; docs/session-lifecycle.md):
 * both start variants, a run to completion, continue, fork, cancel with credit reconciliation, archive,
 * delete, refused transitions and the lineup bounds.
 * @module
 */
import { startEstimates } from '../harness/estimates.js';
import { endedSession } from '../harness/completed-session.js';
import { jsonOf } from '../harness/exchange.js';
import { acceptedStartA } from '../harness/profiles.js';
import {
  discard,
  marker,
  readSession,
  type SessionBody,
  type StartedSession,
  startBodyA,
  startBodyB,
  startCancelledSession,
  startMarkedSession,
  startSession,
  waitForSession,
} from '../harness/sessions.js';
import { expectProblem, statusOf } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';

/** The lifecycle is a session's states: the checks need a target that keeps them. */
const check = checksOf('lifecycle', { preconditions: ['live'] });

const completedSession = (ctx: CheckContext, purpose: string): Promise<{ id: string; session: SessionBody }> =>
  endedSession(ctx, marker(purpose));

/** Expects the start to have answered one of the published start responses `accepted`. */
function expectStartVariant(
  ctx: CheckContext,
  requirement: string,
  started: StartedSession,
  accepted: readonly string[],
): void {
  ctx.expect(
    requirement,
    started.variant !== undefined && accepted.includes(started.variant),
    {
      kind: 'variant',
      message: `the start answered ${started.variant ?? 'no published variant'}`,
      expected: accepted,
      got: started.variant ?? jsonOf(started.exchange),
      evidence: started.exchange,
    },
    `the start answered ${statusOf(started.exchange)} with variant ${started.variant}`,
  );
}

export const startVariantA = check('start-variant-a', ['LIFE-001'], {
  title: 'A board-lineup start is accepted with a published start response',
  async run(ctx) {
    const started = await startSession(ctx.http, ctx.contract, startBodyA(ctx.target.synths, marker('start A')));
    const version = started.exchange.response?.headers['x-service-api-version'];
    expectStartVariant(ctx, 'LIFE-001', started, acceptedStartA(ctx.profile, version));
    await discard(ctx.http, started.id);
  },
});

export const startVariantB = check('start-variant-b', ['LIFE-002'], {
  title: 'A decision-brief start is accepted with a published start response',
  async run(ctx) {
    const started = await startSession(ctx.http, ctx.contract, startBodyB());
    expectStartVariant(ctx, 'LIFE-002', started, ctx.profile.startResponseB);
    await discard(ctx.http, started.id);
  },
});

export const runToCompletion = check('run-to-completion', ['LIFE-003', 'LIFE-004'], {
  title: 'A session runs to complete with a memo, and its outcomes are readable',
  async run(ctx) {
    const { id, session } = await completedSession(ctx, 'completion');
    const memo = (session['memo'] ?? {}) as { verdict?: unknown; confidence_0_100?: unknown };
    const confidence = memo.confidence_0_100;
    const { exchange } = await readSession(ctx.http, id);
    const complete =
      session.status === 'complete' &&
      session['v4_phase'] === 'done' &&
      typeof memo.verdict === 'string' &&
      Number.isInteger(confidence) &&
      (confidence as number) >= 0 &&
      (confidence as number) <= 100;
    ctx.expect(
      'LIFE-003',
      complete,
      {
        kind: 'state',
        message: `the session ended ${String(session.status)} (${String(session['v4_phase'])})`,
        expected: { status: 'complete', v4_phase: 'done', memo: { verdict: 'a string', confidence_0_100: '0 to 100' } },
        got: { status: session.status, v4_phase: session['v4_phase'], memo: session['memo'] ?? null },
        evidence: exchange,
      },
      `complete, done, verdict with confidence ${String(confidence)}`,
    );
    const outcomes = await ctx.http.get(`/v1/sessions/${id}/outcomes`);
    const synthesis = (jsonOf(outcomes) as { synthesis?: unknown } | undefined)?.synthesis;
    ctx.expect(
      'LIFE-004',
      outcomes.response?.status === 200 && typeof synthesis === 'string' && synthesis !== '',
      {
        kind: 'state',
        message: 'the outcomes of a complete session are not readable',
        expected: '200 with a synthesis',
        got: { status: outcomes.response?.status, synthesis: synthesis ?? null },
        evidence: outcomes,
      },
      'the outcomes answered 200 with a synthesis',
    );
  },
});

export const continueSession = check('continue', ['LIFE-005'], {
  title: 'Continuing a complete session runs a further round',
  async run(ctx) {
    const { id, session } = await completedSession(ctx, 'continue');
    if (session.status !== 'complete') {
      ctx.skip('LIFE-005', `the session ended ${String(session.status)}, not complete`);
      return;
    }
    const rounds = Number(session['rounds']);
    const answer = await ctx.http.post(`/v1/sessions/${id}/continue`, { rounds: 1 });
    if (
      !ctx.expect('LIFE-005', statusOf(answer) === 202, {
        kind: 'status',
        message: `continue answered ${statusOf(answer)}`,
        expected: 202,
        got: statusOf(answer),
        evidence: answer,
      })
    ) {
      return;
    }
    const after = await waitForSession(
      ctx.http,
      id,
      (body) => body.status === 'complete' && Number(body['current_round']) > rounds,
      ctx.timeouts.sessionMs,
    ).catch(() => undefined);
    const { exchange, session: last } = await readSession(ctx.http, id);
    ctx.expect(
      'LIFE-005',
      after !== undefined && Number(last['rounds']) === rounds + 1 && Number(last['current_round']) === rounds + 1,
      {
        kind: 'state',
        message: 'the continued session did not complete round ' + String(rounds + 1),
        expected: { status: 'complete', rounds: rounds + 1, current_round: rounds + 1 },
        got: { status: last.status, rounds: last['rounds'], current_round: last['current_round'] },
        evidence: exchange,
      },
      `continued to round ${rounds + 1} and completed again`,
    );
  },
});

export const fork = check('fork', ['LIFE-006'], {
  title: 'Forking creates a new session with the altered context',
  async run(ctx) {
    const source = await startSession(ctx.http, ctx.contract, startBodyA(ctx.target.synths, marker('fork source')));
    const context = `${marker('fork')}: the same question, now with EU data residency confirmed.`;
    const answer = await ctx.http.post(`/v1/sessions/${source.id}/fork`, { context });
    const forkId =
      ((jsonOf(answer) ?? {}) as { session_id?: string; id?: string }).session_id ??
      ((jsonOf(answer) ?? {}) as { id?: string }).id;
    if (
      !ctx.expect('LIFE-006', statusOf(answer) === 202 && forkId !== undefined && forkId !== source.id, {
        kind: 'status',
        message: `fork answered ${statusOf(answer)}`,
        expected: '202 with a new session id',
        got: jsonOf(answer) ?? statusOf(answer),
        evidence: answer,
      })
    ) {
      await discard(ctx.http, source.id);
      return;
    }
    const { exchange, session } = await readSession(ctx.http, forkId!);
    ctx.expect(
      'LIFE-006',
      session['forked_from'] === source.id && session['context'] === context,
      {
        kind: 'state',
        message: 'the fork does not record its source or its context',
        expected: { forked_from: source.id, context },
        got: { forked_from: session['forked_from'] ?? null, context: session['context'] ?? null },
        evidence: exchange,
      },
      'the fork records its source and the altered context',
    );
    await Promise.all([discard(ctx.http, source.id), discard(ctx.http, forkId!)]);
  },
});

export const cancel = check('cancel', ['LIFE-007', 'LIFE-008'], {
  title: 'Cancelling reconciles the credits',
  async run(ctx) {
    const started = await startMarkedSession(ctx, 'cancel', 10);
    const answer = await ctx.http.post(`/v1/sessions/${started.id}/cancel`, {
      reason: 'A conformance run cancels it.',
    });
    const { exchange, session } = await readSession(ctx.http, started.id);
    const charged = session['credits_charged'];
    const refunded = session['credits_refunded'];
    const reconciled =
      statusOf(answer) === 200 &&
      session.status === 'cancelled' &&
      Number.isInteger(charged) &&
      Number.isInteger(refunded);
    ctx.expect(
      'LIFE-007',
      reconciled,
      {
        kind: 'state',
        message: `cancel answered ${statusOf(answer)}; the session is ${String(session.status)}`,
        expected: { status: 'cancelled', credits_charged: 'an integer', credits_refunded: 'an integer' },
        got: { status: session.status, credits_charged: charged ?? null, credits_refunded: refunded ?? null },
        evidence: [answer, exchange],
      },
      `cancelled: ${String(charged)} charged, ${String(refunded)} refunded`,
    );
    const [estimate] = (await startEstimates(ctx.http, started.exchange, session, started.id)).estimates;
    if (!reconciled || !Number.isInteger(estimate)) {
      ctx.skip('LIFE-008', 'the session reports no estimate or no reconciliation');
      return;
    }
    ctx.expect(
      'LIFE-008',
      (charged as number) + (refunded as number) === estimate,
      {
        kind: 'state',
        message: 'charged and refunded do not add up to the estimate',
        expected: estimate,
        got: { credits_charged: charged, credits_refunded: refunded },
        evidence: exchange,
      },
      `${String(charged)} + ${String(refunded)} = the estimate ${String(estimate)}`,
    );
  },
});

export const archive = check('archive', ['LIFE-009'], {
  title: 'Archiving a finished session keeps it readable',
  async run(ctx) {
    const started = await startCancelledSession(ctx, 'archive', 1);
    const answer = await ctx.http.post(`/v1/sessions/${started.id}/archive`);
    const { exchange, session } = await readSession(ctx.http, started.id);
    ctx.expect(
      'LIFE-009',
      statusOf(answer) === 200 && session.status === 'archived' && typeof session['archived_at'] === 'string',
      {
        kind: 'state',
        message: `archive answered ${statusOf(answer)}; the session is ${String(session.status)}`,
        expected: { status: 'archived', archived_at: 'a timestamp' },
        got: { status: session.status, archived_at: session['archived_at'] ?? null },
        evidence: [answer, exchange],
      },
      'archived, still readable',
    );
  },
});

export const deleteSession = check('delete', ['LIFE-010'], {
  title: 'Deleting answers 204 and the session is 404 afterwards',
  async run(ctx) {
    const started = await startCancelledSession(ctx, 'delete', 1);
    const answer = await ctx.http.delete(`/v1/sessions/${started.id}`);
    ctx.expect(
      'LIFE-010',
      statusOf(answer) === 204 && answer.response?.body === '',
      {
        kind: 'status',
        message: `DELETE answered ${statusOf(answer)}`,
        expected: '204 without a body',
        got: { status: statusOf(answer), body: answer.response?.body.slice(0, 200) },
        evidence: answer,
      },
      'DELETE answered 204',
    );
    expectProblem(
      ctx,
      'LIFE-010',
      await ctx.http.get(`/v1/sessions/${started.id}`),
      404,
      'not-found',
      'GET after DELETE',
    );
    expectProblem(
      ctx,
      'LIFE-010',
      await ctx.http.delete(`/v1/sessions/${started.id}`),
      404,
      'not-found',
      'a second DELETE',
    );
  },
});

export const invalidTransition = check('invalid-transition', ['LIFE-011'], {
  title: 'Operations the state does not allow are 409 conflict',
  async run(ctx) {
    // Only states the suite itself puts the session in, so no transition races the run.
    const started = await startCancelledSession(ctx, 'transitions', 10);
    expectProblem(
      ctx,
      'LIFE-011',
      await ctx.http.post(`/v1/sessions/${started.id}/cancel`, {}),
      409,
      'conflict',
      'cancel a cancelled session',
    );
    expectProblem(
      ctx,
      'LIFE-011',
      await ctx.http.post(`/v1/sessions/${started.id}/continue`, {}),
      409,
      'conflict',
      'continue a cancelled session',
    );
    expectProblem(
      ctx,
      'LIFE-011',
      await ctx.http.post(`/v1/sessions/${started.id}/reconvene`, {}),
      409,
      'conflict',
      'reconvene a cancelled session',
    );
  },
});

export const lineupBounds = check('lineup-bounds', ['LIFE-012'], {
  title: 'A lineup outside 2 to 12 Synths is 400 invalid-request',
  // Refused before any state is kept: a mock judges it too.
  preconditions: [],
  async run(ctx) {
    const library =
      ctx.target.synths.length >= 13
        ? ctx.target.synths
        : Array.from({ length: 13 }, (_, index) => `synth_${index + 1}`);
    for (const synths of [library.slice(0, 1), library.slice(0, 13)]) {
      const exchange = await ctx.http.post('/v1/sessions', { mode: 'boardroom', title: marker('lineup'), synths });
      expectProblem(ctx, 'LIFE-012', exchange, 400, 'invalid-request', `a lineup of ${synths.length}`);
    }
  },
});

export const lifecycleChecks = [
  lineupBounds,
  startVariantA,
  startVariantB,
  runToCompletion,
  continueSession,
  fork,
  cancel,
  archive,
  deleteSession,
  invalidTransition,
];
