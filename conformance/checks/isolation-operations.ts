/**
 * Workspace isolation (seed "Authentication" 3) on the operations beyond a session's reads and changes:
 * executing and undoing actions, reading the credit balance, and the session operations that create or
 * end something of it (outcomes, exports, reconvening, revoking a share link).
 * @module
 */
import { completedSession } from '../harness/completed-session.js';
import { readCredits, entriesOf, newEntries, sumOf } from '../harness/credits.js';
import { type Exchange, jsonOf } from '../harness/exchange.js';
import { discard, startMarkedSession, waitUntilEnded } from '../harness/sessions.js';
import { actionRequest, approved, connectedTool, execute } from './actions.js';
import { expectAllHidden, keyB } from './isolation.js';
import { statusOf } from './problem-shape.js';
import { checksOf } from './define.js';

/** Isolation is judged between two workspaces: a target that keeps state, and a key of the second. */
const check = checksOf('isolation', { preconditions: ['live', 'second-key'] });

export const actions = check('actions', ['ISO-008'], {
  title: "Another workspace's actions cannot be executed or undone",
  async run(ctx) {
    const tool = await connectedTool(ctx);
    if (tool === undefined) {
      ctx.skip('ISO-008', 'the target lists no connected integration whose operations create something');
      return;
    }
    const owned = await completedSession(ctx, 'isolation action');
    const { action } = await execute(ctx, owned.id, tool);
    if (typeof action.id !== 'string') {
      ctx.skip('ISO-008', 'the approved execution gave no action to try undoing (ACT-002 judges that)');
      return;
    }
    await expectAllHidden(ctx, 'ISO-008', owned.title, [
      [
        'POST /v1/actions/execute for the session',
        () => keyB(ctx).post('/v1/actions/execute', actionRequest(owned.id, tool, approved)),
      ],
      ['POST /v1/actions/{id}/undo', () => keyB(ctx).post(`/v1/actions/${String(action.id)}/undo`)],
    ]);
    const undo = await ctx.http.post(`/v1/actions/${String(action.id)}/undo`);
    ctx.expect(
      'ISO-008',
      statusOf(undo) === 200,
      {
        kind: 'isolation',
        message: `the owner's undo answered ${statusOf(undo)}: the other workspace's attempt undid the action`,
        expected: 200,
        got: statusOf(undo),
        evidence: undo,
      },
      "the action was still the owner's to undo",
    );
  },
});

export const credits = check('credits', ['ISO-009'], {
  title: "Another workspace's credit use is not in this workspace's balance",
  async run(ctx) {
    const before = await readCredits(keyB(ctx));
    const started = await startMarkedSession(ctx, 'isolation credits', 1);
    await waitUntilEnded(ctx, started.id);
    const after = await readCredits(keyB(ctx));
    const shown = entriesOf(after, started.id);
    const fresh = newEntries(before, after);
    const balanceHolds = fresh === undefined || after.balance - before.balance === sumOf(fresh);
    ctx.expect(
      'ISO-009',
      shown.length === 0 && balanceHolds,
      {
        kind: 'isolation',
        message: "the other workspace's credits show the first workspace's session",
        expected: {
          entriesOfTheSession: 0,
          balance: fresh === undefined ? 'moved by its own entries' : before.balance + sumOf(fresh),
        },
        got: { entriesOfTheSession: shown, balance: after.balance },
        evidence: [before.exchange, after.exchange],
      },
      "the other workspace's balance and ledger hold nothing of the session",
    );
    await discard(ctx.http, started.id);
  },
});

export const sessionOperations = check('session-operations', ['ISO-010'], {
  title: 'Another workspace cannot generate, export, reconvene or revoke for a session',
  async run(ctx) {
    const owned = await completedSession(ctx, 'isolation operations');
    const path = `/v1/sessions/${owned.id}`;
    const shared = await ctx.http.post(`${path}/shares`, { access: 'public' });
    const shareId = (jsonOf(shared) as { id?: unknown } | undefined)?.id;
    await expectAllHidden(ctx, 'ISO-010', owned.title, [
      ['POST /v1/sessions/{id}/outcomes', () => keyB(ctx).post(`${path}/outcomes`, { format: 'decision_memo' })],
      ['POST /v1/sessions/{id}/exports', () => keyB(ctx).post(`${path}/exports`, { format: 'json' })],
      ['POST /v1/sessions/{id}/reconvene', () => keyB(ctx).post(`${path}/reconvene`, {})],
      ...(typeof shareId === 'string'
        ? [
            [
              'POST /v1/sessions/{id}/shares/{share_id}/revoke',
              () => keyB(ctx).post(`${path}/shares/${shareId}/revoke`),
            ] as [string, () => Promise<Exchange>],
          ]
        : []),
    ]);
    if (typeof shareId !== 'string') {
      ctx.note(`the share link the check needs was refused (${statusOf(shared)}); its revocation was not tried`);
    }
    await discard(ctx.http, owned.id);
  },
});

export const isolationOperationChecks = [actions, credits, sessionOperations];
