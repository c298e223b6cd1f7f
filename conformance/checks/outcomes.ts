/**
 * Outcome documents (seed "Endpoints": `POST …/outcomes` generates an action plan, report or memo and
 * triggers `outcomes.ready`; `GET …/outcomes` answers once the session is complete).
 * @module
 */
import { completedSession } from '../harness/completed-session.js';
import { expectEvent, watching } from '../harness/event-watch.js';
import { type Exchange, jsonOf } from '../harness/exchange.js';
import { delay } from '../harness/http.js';
import { discard, readSession, startMarkedSession, terminalStatuses } from '../harness/sessions.js';
import { expectProblem, statusOf } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';

/** Outcomes are made from a session the check runs: the checks need a target that keeps state. */
const check = checksOf('outcomes', { preconditions: ['live'] });

const formats = ['action_plan', 'report', 'decision_memo'] as const;

interface OutcomeBody {
  id?: unknown;
  format?: unknown;
  status?: unknown;
  content?: unknown;
}

/** Reads the outcomes until every one of `ids` is ready, or the session timeout passes. */
async function readyOutcomes(
  ctx: CheckContext,
  sessionId: string,
  ids: readonly string[],
): Promise<{ exchange: Exchange; outcomes: OutcomeBody[] }> {
  const deadline = Date.now() + ctx.timeouts.sessionMs;
  for (;;) {
    const exchange = await ctx.http.get(`/v1/sessions/${sessionId}/outcomes`);
    const outcomes = (((jsonOf(exchange) ?? {}) as { outcomes?: unknown }).outcomes ?? []) as OutcomeBody[];
    const ready = ids.every((id) => outcomes.some((outcome) => outcome.id === id && outcome.status === 'ready'));
    if (ready || Date.now() >= deadline || ctx.signal.aborted) {
      return { exchange, outcomes };
    }
    await delay(100, ctx.signal);
  }
}

export const generate = check('generate', ['OUT-001'], {
  title: 'An action plan, a report and a memo are generated and become ready',
  async run(ctx) {
    const { id } = await completedSession(ctx, 'outcomes');
    const asked = await Promise.all(formats.map((format) => ctx.http.post(`/v1/sessions/${id}/outcomes`, { format })));
    const ids = asked
      .map((exchange) => (jsonOf(exchange) as OutcomeBody | undefined)?.id)
      .filter((value): value is string => typeof value === 'string');
    const accepted = asked.every((exchange) => statusOf(exchange) === 202) && ids.length === formats.length;
    if (
      !ctx.expect(
        'OUT-001',
        accepted,
        {
          kind: 'status',
          message: 'generating outcomes was not accepted with an outcome id each',
          expected: formats.map((format) => ({ format, status: 202 })),
          got: asked.map((exchange) => jsonOf(exchange) ?? statusOf(exchange)),
          evidence: asked,
        },
        `${formats.length} outcomes accepted`,
      )
    ) {
      return;
    }
    const { exchange, outcomes } = await readyOutcomes(ctx, id, ids);
    const written = formats.map((format, index) =>
      outcomes.find((outcome) => outcome.id === ids[index] && outcome.format === format),
    );
    const complete = written.every(
      (outcome) => outcome?.status === 'ready' && typeof outcome.content === 'string' && outcome.content !== '',
    );
    ctx.expect(
      'OUT-001',
      complete,
      {
        kind: 'state',
        message: 'the generated outcomes did not all become ready with their content',
        expected: formats.map((format, index) => ({ id: ids[index], format, status: 'ready', content: 'a document' })),
        got: outcomes,
        evidence: exchange,
      },
      `${formats.join(', ')} ready with their content`,
    );
  },
});

export const readyEvent = check('ready-event', ['OUT-002'], {
  title: 'A generated outcome triggers outcomes.ready',
  preconditions: ['live', 'receiver-reachable'],
  run: watching('OUT-002', 'outcomes.ready', async (ctx, subscription) => {
    const { id } = await completedSession(ctx, 'outcome event');
    const asked = await ctx.http.post(`/v1/sessions/${id}/outcomes`, { format: 'decision_memo' });
    const outcomeId = (jsonOf(asked) as OutcomeBody | undefined)?.id;
    if (typeof outcomeId !== 'string') {
      ctx.fail('OUT-002', {
        kind: 'status',
        message: `generating an outcome answered ${statusOf(asked)} without an id`,
        expected: 202,
        got: jsonOf(asked) ?? statusOf(asked),
        evidence: asked,
      });
    } else {
      await expectEvent(
        ctx,
        'OUT-002',
        subscription,
        'outcomes.ready',
        (data) => data['outcome_id'] === outcomeId && data['session_id'] === id && data['format'] === 'decision_memo',
        `outcome ${outcomeId}`,
      );
    }
  }),
});

export const beforeCompletion = check('before-completion', ['OUT-003'], {
  title: 'A session that has not completed has no outcomes yet',
  async run(ctx) {
    const started = await startMarkedSession(ctx, 'early outcomes', 10);
    const read = await ctx.http.get(`/v1/sessions/${started.id}/outcomes`);
    const generated = await ctx.http.post(`/v1/sessions/${started.id}/outcomes`, { format: 'report' });
    const { session } = await readSession(ctx.http, started.id);
    if (terminalStatuses.has(String(session.status))) {
      ctx.skip(
        'OUT-003',
        `the ten-round session was already ${String(session.status)} when its outcomes were asked for`,
      );
    } else {
      expectProblem(ctx, 'OUT-003', read, 409, 'conflict', 'GET outcomes of a running session');
      expectProblem(ctx, 'OUT-003', generated, 409, 'conflict', 'POST outcomes of a running session');
    }
    await discard(ctx.http, started.id);
  },
});

export const outcomeChecks = [generate, readyEvent, beforeCompletion];
