/**
 * Actions (seed "Endpoints": run a board recommendation through a connected tool, with explicit
 * approval; "States and transitions": an execution can be undone). The approval is part of the request
 * schema, so an unapproved request never gets here.
 * @module
 */
import type { components } from '../../../generated/openapi.js';
import { runTool, isReversible } from '../../domain/connected-tools.js';
import { isoAt } from '../../core/clock.js';
import type { Handler } from '../../ports/handlers.js';
import { newId } from '../../core/ids.js';
import { ProblemError, notFound } from '../../core/problems.js';
import { requireSession } from '../../domain/sessions/resource.js';

type ActionExecution = components['schemas']['ActionExecution'];

/** Sessions whose board has decided: complete, or decided before being reconvened or archived. */
const decidedStates = new Set(['complete', 'reconvened', 'archived']);

export const executeAction: Handler<'executeAction'> = ({ body }, context) => {
  const { services, workspace } = context;
  const { store, clock, webhooks } = services;
  const row = requireSession(context, body.session_id);
  const stored = store.integrations.get(body.integration_id);
  if (stored === undefined || stored.parentId !== workspace.id) {
    throw notFound(`Integration ${body.integration_id}`);
  }
  const integration = stored.record;
  if (!decidedStates.has(row.session.status) || row.session.memo === null) {
    throw new ProblemError(409, `Session ${row.id} is ${row.session.status}; actions run on a complete session.`);
  }
  if (integration.status !== 'connected') {
    throw new ProblemError(409, `${integration.name} is ${integration.status}; reconnect it in the console first.`);
  }
  if (!integration.capabilities.includes(body.operation)) {
    throw new ProblemError(
      409,
      `${integration.name} does not offer ${body.operation}; it offers ${integration.capabilities.join(', ')}.`,
    );
  }
  const id = newId('act');
  const now = clock.now();
  const answer = runTool(integration.provider, integration.account_label, body.operation, body.parameters, id);
  const execution: ActionExecution = {
    id,
    session_id: row.id,
    integration_id: integration.id,
    provider: integration.provider,
    operation: body.operation,
    recommendation: body.recommendation,
    status: answer.ok ? 'executed' : 'failed',
    result: answer.ok ? answer.result : null,
    error: answer.ok ? null : answer.error,
    approved_by: body.approval.approved_by,
    approval_note: body.approval.note ?? null,
    executed_at: isoAt(now),
    undone_at: null,
    undoable: answer.ok && isReversible(body.operation),
  };
  store.transaction(() => {
    store.actions.insert(id, workspace.id, execution, now);
    if (answer.ok) {
      webhooks.emit(workspace, 'action.executed', {
        action_id: id,
        session_id: row.id,
        integration_id: integration.id,
        provider: integration.provider,
        status: 'executed',
        executed_at: execution.executed_at,
      });
    }
  });
  return { status: 200, body: execution };
};

export const undoAction: Handler<'undoAction'> = ({ path }, context) => {
  const { services, workspace } = context;
  const { store, clock, webhooks } = services;
  const stored = store.actions.get(path.id);
  if (stored === undefined || stored.parentId !== workspace.id) {
    throw notFound(`Action ${path.id}`);
  }
  const action = stored.record;
  const integration = store.integrations.get(action.integration_id)?.record;
  if (action.status !== 'executed' || !action.undoable || integration?.status !== 'connected') {
    const why =
      action.status !== 'executed'
        ? `is ${action.status}`
        : !action.undoable
          ? 'cannot be reversed by its tool'
          : 'ran through a tool that is no longer connected';
    throw new ProblemError(409, `Action ${action.id} ${why}; it cannot be undone.`);
  }
  const undone: ActionExecution = { ...action, status: 'undone', undone_at: isoAt(clock.now()), undoable: false };
  store.transaction(() => {
    store.actions.update(action.id, undone);
    webhooks.emit(workspace, 'action.undone', {
      action_id: action.id,
      session_id: action.session_id,
      integration_id: action.integration_id,
      provider: action.provider,
      status: 'undone',
      executed_at: action.executed_at,
      undone_at: undone.undone_at ?? isoAt(clock.now()),
    });
  });
  return { status: 200, body: undone };
};
