/**
 * A workspace with one of everything, made through the API with its key: a complete session with an
 * outcome, a decision, a password-protected share link and an export, an executed action, a chat, and a
 * webhook subscription; plus a second session still running. The hostile-input tests aim at these
 * records and the isolation tests try to reach them from another workspace.
 */
import { expect } from 'vitest';
import { aWholeRun, getJson, lineupStart, type TestServer } from '../server/harness.js';

export interface WorkspaceRecords {
  key: string;
  sessionId: string;
  runningSessionId: string;
  outcomeId: string;
  decisionId: string;
  shareId: string;
  sharePassword: string;
  exportId: string;
  actionId: string;
  integrationId: string;
  conversationId: string;
  webhookId: string;
  signingSecret: string;
}

async function post(
  server: TestServer,
  key: string,
  path: string,
  json: unknown,
  status: number,
): Promise<Record<string, unknown>> {
  const response = await server.request(path, { method: 'POST', json, key });
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.status, `${path}: ${JSON.stringify(body)}`).toBe(status);
  return body;
}

async function start(server: TestServer, key: string, body: Record<string, unknown>): Promise<string> {
  const started = await post(server, key, '/v1/sessions', body, 202);
  return String(started['id'] ?? started['session_id']);
}

/** Fills the workspace of `key`; `webhookUrl` receives its deliveries. */
export async function populateWorkspace(
  server: TestServer,
  key: string,
  webhookUrl: string,
): Promise<WorkspaceRecords> {
  const webhook = await post(
    server,
    key,
    '/v1/webhooks',
    { label: 'Everything', url: webhookUrl, events: ['session.complete', 'share.created'] },
    201,
  );
  const sessionId = await start(server, key, { ...lineupStart(1), title: `Pricing review for ${key.slice(-4)}` });
  server.clock.advance(aWholeRun);
  const outcome = await post(server, key, `/v1/sessions/${sessionId}/outcomes`, { format: 'action_plan' }, 202);
  server.clock.advance(10_000);
  const decision = await post(
    server,
    key,
    `/v1/sessions/${sessionId}/decisions`,
    { decision: 'Raise the Team plan price in Q1.' },
    201,
  );
  const sharePassword = `amber-falcon-${key.slice(-4)}`;
  const share = await post(
    server,
    key,
    `/v1/sessions/${sessionId}/shares`,
    { access: 'password', password: sharePassword },
    201,
  );
  const exported = await post(server, key, `/v1/sessions/${sessionId}/exports`, { format: 'markdown' }, 201);
  const tools = await getJson<{ items: Array<{ id: string; provider: string; status: string }> }>(
    server,
    '/integrations?limit=100',
    key,
  );
  const linear = tools.items.find((tool) => tool.provider === 'linear' && tool.status === 'connected');
  if (linear === undefined) {
    throw new Error('the workspace has no connected Linear tool');
  }
  const action = await post(
    server,
    key,
    '/v1/actions/execute',
    {
      session_id: sessionId,
      recommendation: 'Open a pricing review.',
      integration_id: linear.id,
      operation: 'create_issue',
      parameters: { team_key: 'FIN', title: 'Pricing review' },
      approval: { approved: true, approved_by: 'owner@example.com' },
    },
    200,
  );
  const chat = await post(
    server,
    key,
    '/v1/synths/chat',
    { synth: 'cfo', message: 'What churn did you assume?', session_id: sessionId },
    200,
  );
  const runningSessionId = await start(server, key, { ...lineupStart(3), title: 'Still debating' });
  await server.server.services.webhooks.dispatcher.idle();
  return {
    key,
    sessionId,
    runningSessionId,
    outcomeId: String(outcome['id']),
    decisionId: String(decision['id']),
    shareId: String(share['id']),
    sharePassword,
    exportId: String(exported['id']),
    actionId: String(action['id']),
    integrationId: linear.id,
    conversationId: String(chat['conversation_id']),
    webhookId: String((webhook['subscription'] as { id: string }).id),
    signingSecret: String(webhook['signing_secret']),
  };
}

/** The records' ids, each by the prefix the contract gives its kind. */
export function idsByPrefix(records: WorkspaceRecords): Map<string, string> {
  return new Map(
    [
      records.sessionId,
      records.decisionId,
      records.shareId,
      records.exportId,
      records.actionId,
      records.integrationId,
      records.conversationId,
      records.webhookId,
    ].map((id) => [id.slice(0, id.indexOf('_') + 1), id] as const),
  );
}
