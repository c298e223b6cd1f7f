/**
 * Faults in the consult session type and its MCP tool (seed "What the service does" 6): a consult read as
 * a board session, the tool failing every turn, turns left out of the ledger, requests without a valid
 * key or with another workspace's key let in over MCP.
 * @module
 */
import { editJson, is, keyOf, requestJson, useKeyA } from './exchange-edits.js';
import type { Fault } from './types.js';

const mcpPath = /^\/mcp$/;

export const consultFaults: Fault[] = [
  {
    name: 'consult-read-as-boardroom',
    breaks: ['CONS-001'],
    response: (request, response) =>
      is(request, 'GET', /^\/v1\/sessions\/[^/]+$/)
        ? editJson(response, (body) =>
            body['session_type'] === 'consult'
              ? ((body['session_type'] = 'boardroom'), (body['synth_id'] = null))
              : undefined,
          )
        : undefined,
  },
  {
    // Every tool call is answered with a tool error, as a broken tool would.
    name: 'consult-tool-fails',
    breaks: ['CONS-002'],
    answer(request) {
      if (!is(request, 'POST', mcpPath)) {
        return undefined;
      }
      const message = requestJson(request);
      if (message?.['method'] !== 'tools/call') {
        return undefined;
      }
      const result = { content: [{ type: 'text', text: 'The consult tool is unavailable.' }], isError: true };
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        text: JSON.stringify({ jsonrpc: '2.0', id: message['id'], result }),
      };
    },
  },
  {
    name: 'consult-turn-not-billed',
    breaks: ['CONS-003'],
    response: (request, response) =>
      is(request, 'GET', /^\/credits$/) && response.status === 200
        ? editJson(
            response,
            (body) =>
              (body['recent_usage'] = (body['recent_usage'] as Array<{ kind: string }>).filter(
                (entry) => entry.kind !== 'consult_turn',
              )),
          )
        : undefined,
  },
  {
    name: 'mcp-accept-any-key',
    breaks: ['CONS-005'],
    request(request, state) {
      if (is(request, 'POST', mcpPath) && keyOf(request, state) === undefined) {
        useKeyA(request, state);
      }
    },
  },
  {
    name: 'mcp-isolation-off',
    breaks: ['CONS-004'],
    request(request, state) {
      if (is(request, 'POST', mcpPath) && keyOf(request, state) === 'b') {
        useKeyA(request, state);
      }
    },
  },
];
