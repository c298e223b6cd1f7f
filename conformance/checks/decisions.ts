/**
 * Explicit decisions (seed "What the service does" 4, "Endpoints"): captured, listed, and announced by
 * `decision.captured` (event list variant 4).
 * @module
 */
import { expectEvent, watching } from '../harness/event-watch.js';
import { jsonOf } from '../harness/exchange.js';
import { walkList } from '../harness/pages.js';
import { discard, marker, startMarkedSession } from '../harness/sessions.js';
import { statusOf } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';

const check = checksOf('decisions');

async function capture(ctx: CheckContext, sessionId: string) {
  const decision = {
    decision: `${marker('decision')}: raise the Pro plan price by 5% in Q3.`,
    rationale: 'The board found the churn risk small.',
    decided_by: 'conformance@example.com',
  };
  const exchange = await ctx.http.post(`/v1/sessions/${sessionId}/decisions`, decision);
  return { decision, exchange, body: (jsonOf(exchange) ?? {}) as Record<string, unknown> };
}

export const captureCheck = check('capture', ['DEC-001', 'DEC-002'], {
  title: 'A captured decision is recorded and listed',
  preconditions: ['live'],
  async run(ctx) {
    const started = await startMarkedSession(ctx, 'decisions', 1);
    const { decision, exchange, body } = await capture(ctx, started.id);
    const recorded =
      statusOf(exchange) === 201 &&
      typeof body['id'] === 'string' &&
      body['decision'] === decision.decision &&
      body['decided_by'] === decision.decided_by &&
      body['session_id'] === started.id;
    ctx.expect(
      'DEC-001',
      recorded,
      {
        kind: 'state',
        message: `capturing a decision answered ${statusOf(exchange)} without it as recorded`,
        expected: { status: 201, ...decision, session_id: started.id },
        got: jsonOf(exchange) ?? statusOf(exchange),
        evidence: exchange,
      },
      `recorded as ${String(body['id'])}`,
    );
    if (!recorded) {
      ctx.skip('DEC-002', 'no decision was recorded to look for');
      await discard(ctx.http, started.id);
      return;
    }
    const listed = await walkList(ctx.http, `/v1/sessions/${started.id}/decisions`, 100, 20);
    const items = listed.pages.flatMap((page) => page.items) as Array<{ id?: unknown }>;
    ctx.expect(
      'DEC-002',
      items.some((item) => item.id === body['id']),
      {
        kind: 'state',
        message: 'the captured decision is not listed',
        expected: body['id'],
        got: items.map((item) => item.id),
        evidence: listed.pages.map((page) => page.exchange),
      },
      `listed among ${items.length}`,
    );
    await discard(ctx.http, started.id);
  },
});

export const capturedEvent = check('captured-event', ['DEC-003'], {
  title: 'Capturing a decision emits decision.captured',
  preconditions: ['live', 'receiver-reachable'],
  run: watching('DEC-003', 'decision.captured', async (ctx, subscription) => {
    const started = await startMarkedSession(ctx, 'decision event', 1);
    const { body } = await capture(ctx, started.id);
    await expectEvent(
      ctx,
      'DEC-003',
      subscription,
      'decision.captured',
      (data) => data['decision_id'] === body['id'] && data['session_id'] === started.id,
      `decision ${String(body['id'])}`,
    );
    await discard(ctx.http, started.id);
  }),
});

export const decisionChecks = [captureCheck, capturedEvent];
