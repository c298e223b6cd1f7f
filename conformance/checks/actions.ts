/**
 * Actions (seed "Endpoints": `POST /actions/execute` runs a board recommendation through a connected tool
 * with explicit approval; "States and transitions": an execution can be undone; event list variants 3
 * and 4: `action.executed`, `action.undone`).
 * @module
 */
import { completedSession } from '../harness/completed-session.js';
import { eventData, expectEvent, expectWatchedEvent, unwatch, watchEvent } from '../harness/event-watch.js';
import { type Exchange, jsonOf } from '../harness/exchange.js';
import { walkList } from '../harness/pages.js';
import { discard, readSession, startMarkedSession, terminalStatuses } from '../harness/sessions.js';
import { expectProblem, statusOf } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';

/** An action is carried out on a session the check runs: the checks need a target that keeps state. */
const check = checksOf('actions', { preconditions: ['live'] });

interface Tool {
  integrationId: string;
  operation: string;
}

interface ActionBody {
  id?: unknown;
  status?: unknown;
  result?: unknown;
  undone_at?: unknown;
}

/** Arguments that cover what the published tools' create and post operations ask for (the contract's examples). */
const parameters = {
  channel: '#conformance',
  text: 'A conformance run carries out a board recommendation.',
  title: 'Conformance action',
  name: 'conformance-action',
  team_key: 'OPS',
  project_key: 'OPS',
  summary: 'Conformance action',
  repo: 'conformance',
  body: 'A conformance run.',
};

type IntegrationItem = { id?: unknown; status?: unknown; capabilities?: unknown; provider?: unknown };

async function integrations(ctx: CheckContext): Promise<IntegrationItem[]> {
  const walk = await walkList(ctx.http, '/integrations', 100, 10);
  return walk.pages.flatMap((page) => page.items) as IntegrationItem[];
}

/** An integration in `status` with an operation that creates something, Slack's `post_message` first. */
async function toolIn(ctx: CheckContext, status: (value: unknown) => boolean): Promise<Tool | undefined> {
  const tools = (await integrations(ctx))
    .filter((item) => status(item.status) && typeof item.id === 'string' && Array.isArray(item.capabilities))
    .flatMap((item) =>
      (item.capabilities as unknown[])
        .filter((operation) => /^(post|create)_/.test(String(operation)))
        .map((operation) => ({
          integrationId: item.id as string,
          operation: String(operation),
          provider: item.provider,
        })),
    );
  const chosen = tools.find((tool) => tool.provider === 'slack' && tool.operation === 'post_message') ?? tools[0];
  return chosen === undefined ? undefined : { integrationId: chosen.integrationId, operation: chosen.operation };
}

export const connectedTool = (ctx: CheckContext) => toolIn(ctx, (status) => status === 'connected');

/**
 * A check body that carries out actions through a connected tool: without one (the target lists no
 * connected integration whose operations create something) each of `requirements` is skipped and the
 * body does not run.
 */
function withConnectedTool(
  requirements: readonly string[],
  body: (ctx: CheckContext, tool: Tool) => Promise<void>,
): (ctx: CheckContext) => Promise<void> {
  return async (ctx) => {
    const tool = await connectedTool(ctx);
    if (tool === undefined) {
      requirements.forEach((requirement) =>
        ctx.skip(requirement, 'the target lists no connected integration whose operations create something'),
      );
      return;
    }
    await body(ctx, tool);
  };
}

export function actionRequest(sessionId: string, tool: Tool, approval: unknown): Record<string, unknown> {
  return {
    session_id: sessionId,
    recommendation: 'Tell the launch team the verdict.',
    integration_id: tool.integrationId,
    operation: tool.operation,
    parameters,
    ...(approval === undefined ? {} : { approval }),
  };
}

export const approved = {
  approved: true,
  approved_by: 'conformance@example.com',
  note: 'A conformance run approves it.',
};

/** The refused requests: no approval, and approval false. */
function unapproved(sessionId: string, tool: Tool): Array<Record<string, unknown>> {
  return [actionRequest(sessionId, tool, undefined), actionRequest(sessionId, tool, { ...approved, approved: false })];
}

export const approvalRequired = check('approval-required', ['ACT-001'], {
  title: 'An execution without explicit approval is refused',
  run: withConnectedTool(['ACT-001'], async (ctx, tool) => {
    const { id } = await completedSession(ctx, 'unapproved action');
    const [none, refused] = unapproved(id, tool);
    expectProblem(
      ctx,
      'ACT-001',
      await ctx.http.post('/v1/actions/execute', none),
      400,
      'invalid-request',
      'an execution without approval',
    );
    expectProblem(
      ctx,
      'ACT-001',
      await ctx.http.post('/v1/actions/execute', refused),
      400,
      'invalid-request',
      'an execution with approved: false',
    );
  }),
});

export async function execute(
  ctx: CheckContext,
  sessionId: string,
  tool: Tool,
): Promise<{ exchange: Exchange; action: ActionBody }> {
  const exchange = await ctx.http.post('/v1/actions/execute', actionRequest(sessionId, tool, approved));
  return { exchange, action: jsonOf(exchange) ?? {} };
}

export const executeAndUndo = check('execute-and-undo', ['ACT-002', 'ACT-003'], {
  title: 'An approved execution runs, and undoing it reverses it once',
  run: withConnectedTool(['ACT-002', 'ACT-003'], async (ctx, tool) => {
    const { id } = await completedSession(ctx, 'action');
    const { exchange, action } = await execute(ctx, id, tool);
    const executed =
      statusOf(exchange) === 200 &&
      action.status === 'executed' &&
      action.result !== null &&
      typeof action.result === 'object' &&
      typeof action.id === 'string';
    ctx.expect(
      'ACT-002',
      executed,
      {
        kind: 'state',
        message: `the approved execution answered ${statusOf(exchange)} without being executed`,
        expected: { status: 200, action: { status: 'executed', result: "the tool's result" } },
        got: jsonOf(exchange) ?? statusOf(exchange),
        evidence: exchange,
      },
      `executed ${tool.operation} as ${String(action.id)}`,
    );
    if (!executed) {
      ctx.skip('ACT-003', 'no action was executed to undo');
      return;
    }
    const undo = await ctx.http.post(`/v1/actions/${String(action.id)}/undo`);
    const undone = (jsonOf(undo) ?? {}) as ActionBody;
    ctx.expect(
      'ACT-003',
      statusOf(undo) === 200 && undone.status === 'undone' && typeof undone.undone_at === 'string',
      {
        kind: 'state',
        message: `undo answered ${statusOf(undo)} without the action undone`,
        expected: { status: 200, action: { status: 'undone', undone_at: 'a timestamp' } },
        got: jsonOf(undo) ?? statusOf(undo),
        evidence: undo,
      },
      `undone at ${String(undone.undone_at)}`,
    );
    expectProblem(
      ctx,
      'ACT-003',
      await ctx.http.post(`/v1/actions/${String(action.id)}/undo`),
      409,
      'conflict',
      'undoing an undone action',
    );
  }),
});

export const actionEvents = check('events', ['ACT-004', 'ACT-005'], {
  title: 'action.executed and action.undone are delivered, and nothing for a refused execution',
  preconditions: ['live', 'receiver-reachable'],
  run: withConnectedTool(['ACT-004', 'ACT-005'], async (ctx, tool) => {
    const [executedWatch, undoneWatch] = [
      await watchEvent(ctx, 'action.executed'),
      await watchEvent(ctx, 'action.undone'),
    ];
    const { id } = await completedSession(ctx, 'action events');
    for (const body of unapproved(id, tool)) {
      await ctx.http.post('/v1/actions/execute', body);
    }
    const { action } = await execute(ctx, id, tool);
    const ofAction = (data: Record<string, unknown>) => data['action_id'] === action.id && data['session_id'] === id;
    if ('skip' in executedWatch) {
      ctx.skip('ACT-004', executedWatch.skip);
    } else {
      await expectEvent(
        ctx,
        'ACT-004',
        executedWatch.subscription,
        'action.executed',
        ofAction,
        `action ${String(action.id)}`,
      );
      const ofSession = executedWatch.subscription.endpoint
        .deliveries()
        .filter((delivery) => eventData(delivery, 'action.executed')?.['session_id'] === id);
      const others = ofSession.filter(
        (delivery) => eventData(delivery, 'action.executed')?.['action_id'] !== action.id,
      );
      ctx.expect(
        'ACT-004',
        others.length === 0,
        {
          kind: 'delivery',
          message: 'action.executed was delivered for an execution without approval',
          expected: `only ${String(action.id)}`,
          got: ofSession.map((delivery) => eventData(delivery, 'action.executed')?.['action_id']),
        },
        'nothing was delivered for the refused executions',
      );
    }
    await ctx.http.post(`/v1/actions/${String(action.id)}/undo`);
    await expectWatchedEvent(ctx, 'ACT-005', undoneWatch, 'action.undone', ofAction, `undoing ${String(action.id)}`);
    await unwatch(ctx, [executedWatch, undoneWatch]);
  }),
});

export const refusedStates = check('refused-states', ['ACT-006'], {
  title: 'An approved execution is refused while the session runs or the tool is not connected',
  run: withConnectedTool(['ACT-006'], async (ctx, tool) => {
    const running = await startMarkedSession(ctx, 'action too early', 10);
    const early = await ctx.http.post('/v1/actions/execute', actionRequest(running.id, tool, approved));
    // A target faster than real time may have finished even ten rounds: then the action was lawful.
    const { session } = await readSession(ctx.http, running.id);
    const ended = terminalStatuses.has(String(session.status));
    if (ended) {
      ctx.note(`the ten-round session was already ${String(session.status)} when the action came`);
    } else {
      expectProblem(ctx, 'ACT-006', early, 409, 'conflict', 'an action for a running session');
    }
    await discard(ctx.http, running.id);
    const disconnected = await toolIn(ctx, (status) => status !== 'connected');
    if (disconnected === undefined) {
      if (ended) {
        ctx.skip(
          'ACT-006',
          'the ten-round session had ended before the action came (the target may run faster than real time), and no integration is listed disconnected',
        );
      } else {
        ctx.note('no integration is listed disconnected; only the running session was tried');
      }
      return;
    }
    const { id } = await completedSession(ctx, 'action on a disconnected tool');
    expectProblem(
      ctx,
      'ACT-006',
      await ctx.http.post('/v1/actions/execute', actionRequest(id, disconnected, approved)),
      409,
      'conflict',
      'an action through a disconnected integration',
    );
  }),
});

export const actionChecks = [approvalRequired, executeAndUndo, actionEvents, refusedStates];
