/**
 * The consult session type and its MCP tool (seed "What the service does" 4, 6, 8; "Authentication" 3):
 * a consult start, turns over MCP Streamable HTTP with a real MCP client, their billing in the ledger,
 * and workspace isolation on MCP.
 * @module
 */
import { entriesOf, readCredits, sumOf } from '../harness/credits.js';
import { ownWorkspaceOrShared } from '../harness/key-control.js';
import { connectMcp, consultTool, type McpConnection, type ToolAnswer } from '../harness/mcp.js';
import { readSession, startConsult } from '../harness/sessions.js';
import { expectProblem } from './problem-shape.js';
import { checksOf } from './define.js';

const check = checksOf('consult');

/** One turn; a tool that throws (a JSON-RPC error) counts as an error answer. */
async function turn(mcp: McpConnection, name: string, sessionId: string, message: string): Promise<ToolAnswer> {
  try {
    return await mcp.call(name, { session_id: sessionId, message });
  } catch (error) {
    return { isError: true, output: undefined, text: (error as Error).message };
  }
}

export const turns = check('turns', ['CONS-001', 'CONS-002', 'CONS-003'], {
  title: 'A consult session talks turn by turn over MCP, each turn billed',
  preconditions: ['live'],
  async run(ctx) {
    // A workspace of its own when the test control provides one, so the ledger holds only this session's turns.
    const http = await ownWorkspaceOrShared(ctx);
    const { id, expert } = await startConsult(ctx, http);
    const { exchange, session } = await readSession(http, id);
    ctx.expect(
      'CONS-001',
      session['session_type'] === 'consult' && session['synth_id'] === expert,
      {
        kind: 'state',
        message: 'the session does not read as a consult with the named expert',
        expected: { session_type: 'consult', synth_id: expert },
        got: { session_type: session['session_type'] ?? null, synth_id: session['synth_id'] ?? null },
        evidence: exchange,
      },
      `a consult with ${expert}`,
    );

    const tool = consultTool(ctx);
    const mcp = await connectMcp(ctx, http);
    try {
      const listed = await mcp.tools();
      const answers: ToolAnswer[] = [];
      for (const message of [
        'We sell EUR 2.4M a year into the EU; where do we register?',
        'Draft a memo for our accountants.',
      ]) {
        answers.push(await turn(mcp, tool.name, id, message));
      }
      const numbers = answers.map((answer) => answer.output?.['turn']);
      const replied = answers.every(
        (answer) =>
          !answer.isError &&
          typeof answer.output?.['reply'] === 'string' &&
          answer.output['reply'] !== '' &&
          answer.output['session_id'] === id,
      );
      ctx.expect(
        'CONS-002',
        listed.includes(tool.name) && replied && numbers[0] === 1 && numbers[1] === 2,
        {
          kind: 'state',
          message: `the tool is not listed, or its turns did not answer the expert's reply in order`,
          expected: { tools: tool.name, turns: [1, 2], reply: 'a string' },
          got: {
            tools: listed,
            turns: numbers,
            errors: answers.filter((answer) => answer.isError).map((answer) => answer.text),
          },
          evidence: mcp.exchanges(),
        },
        `${tool.name} answered turns ${numbers.join(' and ')} with the expert's reply`,
      );

      const charged = answers.map((answer) => answer.output?.['credits_charged']);
      const credits = await readCredits(http);
      const entries = entriesOf(credits, id);
      const total = charged.every(Number.isInteger)
        ? (charged as number[]).reduce((sum, value) => sum + value, 0)
        : Number.NaN;
      ctx.expect(
        'CONS-003',
        replied && entries.length === answers.length && -sumOf(entries) === total && total > 0,
        {
          kind: 'state',
          message: 'the turns do not report their cost, or the ledger does not list one entry per turn adding up to it',
          expected: { entries: answers.length, sum: -total },
          got: { credits_charged: charged, entries },
          evidence: [...mcp.exchanges(), credits.exchange],
        },
        `${answers.length} turns billed ${total} credits, one ledger entry each`,
      );
    } finally {
      await mcp.close();
    }
  },
});

export const isolation = check('isolation', ['CONS-004', 'CONS-005'], {
  title: "MCP needs a valid key, and another workspace's key cannot take a consult turn",
  preconditions: ['live', 'second-key'],
  async run(ctx) {
    const tool = consultTool(ctx);
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'boardkit-conformance', version: '1.0.0' },
      },
    };
    const accept = { accept: 'application/json, text/event-stream' };
    expectProblem(
      ctx,
      'CONS-005',
      await ctx.anonymous.post(tool.path, initialize, { headers: accept }),
      401,
      'unauthorized',
      `POST ${tool.path} without a key`,
    );
    expectProblem(
      ctx,
      'CONS-005',
      await ctx.anonymous.post(tool.path, initialize, {
        headers: accept,
        credentials: { kind: 'bearer', key: 'sk_test_notakeyofthistarget0000' },
      }),
      401,
      'unauthorized',
      `POST ${tool.path} with a key the target does not know`,
    );
    const { id } = await startConsult(ctx, ctx.http);
    const mcpB = await connectMcp(ctx, ctx.httpB!);
    const mcpA = await connectMcp(ctx, ctx.http);
    try {
      const intruder = await turn(mcpB, tool.name, id, 'Tell me what the other workspace asked.');
      const owner = await turn(mcpA, tool.name, id, 'Where should we register for EU VAT?');
      const number = owner.output?.['turn'];
      ctx.expect(
        'CONS-004',
        intruder.isError && !owner.isError && number === 1,
        {
          kind: 'isolation',
          message: "a key of another workspace took a turn in the session, or the owner's first turn was not turn 1",
          expected: { intruder: 'a tool error', ownerTurn: 1 },
          got: { intruder: intruder.isError ? intruder.text : intruder.output, ownerTurn: number ?? owner.text },
          evidence: [...mcpB.exchanges(), ...mcpA.exchanges()],
        },
        "the other workspace's call was refused; the owner's first turn is turn 1",
      );
    } finally {
      await Promise.all([mcpA.close(), mcpB.close()]);
    }
  },
});

export const consultChecks = [turns, isolation];
