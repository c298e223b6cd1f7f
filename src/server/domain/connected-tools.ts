/**
 * The connected tools actions run through (seed "Endpoints": `POST /api/v1/actions/execute` runs a board
 * recommendation through a connected tool). The reference server has no real Slack or Linear behind its
 * integrations, so each provider is simulated: it checks the parameters its operation needs, refuses
 * what the real tool refuses, and answers with the id and link of what it made. Operations that create
 * something can be undone (the message deleted, the page archived, the issue cancelled).
 * @module
 */
import { createHash } from 'node:crypto';
import type { components } from '../../generated/openapi.js';

type ActionResult = components['schemas']['ActionResult'];
type ActionError = components['schemas']['ActionError'];

/** The parameters each operation needs, by provider and operation (designed after each tool's API). */
const requiredParameters: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  slack: { post_message: ['channel', 'text'], create_channel: ['name'] },
  linear: { create_issue: ['team_key', 'title'], update_issue: ['issue_id'], add_comment: ['issue_id', 'body'] },
  notion: { create_page: ['title'], append_to_page: ['page_id', 'content'] },
  jira: {
    create_issue: ['project_key', 'summary'],
    add_comment: ['issue_key', 'body'],
    transition_issue: ['issue_key', 'transition'],
  },
  github: { create_issue: ['repo', 'title'], add_comment: ['repo', 'issue_number', 'body'] },
  hubspot: { create_task: ['title'], update_deal: ['deal_id'], create_note: ['body'] },
  asana: { create_task: ['name'] },
};

/** Fields a tool refuses to set through its API (Jira's "not on the appropriate screen"). */
const refusedFields: Readonly<Record<string, readonly string[]>> = { jira: ['priority'] };

export type ToolAnswer = { ok: true; result: ActionResult } | { ok: false; error: ActionError };

/** Whether an operation made something that can be taken back. */
export function isReversible(operation: string): boolean {
  return /^(post|create)_/.test(operation);
}

function referenceOf(actionId: string): string {
  return createHash('sha256').update(actionId).digest('hex').slice(0, 8);
}

function resultOf(provider: string, accountLabel: string, operation: string, actionId: string): ActionResult {
  const ref = referenceOf(actionId);
  const number = (parseInt(ref.slice(0, 4), 16) % 900) + 100;
  switch (provider) {
    case 'slack':
      return {
        external_id: `C${ref.toUpperCase()}/p${parseInt(ref, 16)}`,
        external_url: `https://${accountLabel}/archives/C${ref.toUpperCase()}`,
      };
    case 'linear':
      return { external_id: `ISS-${number}`, external_url: `https://linear.app/issue/ISS-${number}` };
    case 'notion':
      return { external_id: ref, external_url: `https://www.notion.so/${ref}` };
    case 'jira':
      return { external_id: `SEC-${number}`, external_url: `https://${accountLabel}/browse/SEC-${number}` };
    case 'github':
      return { external_id: String(number), external_url: `https://github.com/${accountLabel}/issues/${number}` };
    default:
      return { external_id: `${operation}-${ref}`, external_url: null };
  }
}

export function runTool(
  provider: string,
  accountLabel: string,
  operation: string,
  parameters: Record<string, unknown>,
  actionId: string,
): ToolAnswer {
  const missing = (requiredParameters[provider]?.[operation] ?? []).filter((name) => parameters[name] === undefined);
  if (missing.length > 0) {
    return {
      ok: false,
      error: {
        code: 'tool_rejected',
        message: `The tool needs ${missing.join(', ')} to ${operation.replace(/_/g, ' ')}.`,
      },
    };
  }
  const refused = (refusedFields[provider] ?? []).find((name) => parameters[name] !== undefined);
  if (refused !== undefined) {
    return {
      ok: false,
      error: { code: 'tool_rejected', message: `The tool answered 400: field '${refused}' cannot be set.` },
    };
  }
  return { ok: true, result: resultOf(provider, accountLabel, operation, actionId) };
}
