/**
 * The consult tool over MCP (seed "What the service does" 6; the contract's `x-mcp-tools`): a real MCP
 * client (`@modelcontextprotocol/sdk`) over Streamable HTTP at the endpoint the contract names, relative
 * to the base URL, authenticated with a workspace's bearer key. Each HTTP request it makes is recorded as
 * an exchange, as the suite's own client does.
 * @module
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpTools } from '../../src/contract/extensions.js';
import type { CheckContext } from './check.js';
import { type Exchange, headersOf, redactAuthorization } from './exchange.js';
import type { HttpClient } from './http.js';

/** The consult tool's name and its endpoint's path, as the contract gives them. */
export function consultTool(ctx: CheckContext): { name: string; path: string } {
  const tool = mcpTools(ctx.contract.document).find((entry) => entry.name.endsWith('.consult.message'));
  return { name: tool?.name ?? 'service.consult.message', path: tool?.endpointPath ?? '/mcp' };
}

export interface ToolAnswer {
  isError: boolean;
  /** The tool's structured output, or the text of its first content item when it has none. */
  output: Record<string, unknown> | undefined;
  text: string;
}

export interface McpConnection {
  tools(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<ToolAnswer>;
  /** The exchanges this connection made so far (evidence). */
  exchanges(): Exchange[];
  close(): Promise<void>;
}

/** A fetch that records each request and its answer in the run's log. */
function recordingFetch(ctx: CheckContext, own: Exchange[]): typeof fetch {
  const log = ctx.http.config.log;
  return async (input, init) => {
    const request = new Request(input, init);
    const headers = headersOf(request.headers);
    if (headers['authorization'] !== undefined) {
      headers['authorization'] = redactAuthorization(headers['authorization']);
    }
    // The MCP client sends its JSON-RPC messages as strings.
    const body = typeof init?.body === 'string' ? init.body : undefined;
    const exchange: Exchange = {
      id: log.nextId(),
      check: ctx.name,
      request: { method: request.method, url: request.url, headers, ...(body === undefined ? {} : { body }) },
      startedAt: Date.now(),
      durationMs: 0,
    };
    own.push(exchange);
    try {
      const response = await fetch(input, init);
      const text = await response.clone().text();
      exchange.response = { status: response.status, headers: headersOf(response.headers), body: text };
      return response;
    } catch (error) {
      exchange.error = error instanceof Error ? error.message : String(error);
      throw error;
    } finally {
      exchange.durationMs = Date.now() - exchange.startedAt;
      log.add(exchange);
    }
  };
}

export async function connectMcp(ctx: CheckContext, http: HttpClient): Promise<McpConnection> {
  const own: Exchange[] = [];
  const authorization = http.authorization();
  const transport = new StreamableHTTPClientTransport(new URL(http.url(consultTool(ctx).path)), {
    requestInit: { headers: authorization === undefined ? {} : { authorization } },
    fetch: recordingFetch(ctx, own),
  });
  const client = new Client({ name: 'boardkit-conformance', version: '1.0.0' });
  await client.connect(transport);
  return {
    async tools() {
      return (await client.listTools()).tools.map((tool) => tool.name);
    },
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      const content = (result.content ?? []) as Array<{ type?: string; text?: string }>;
      const text = content.find((item) => item.type === 'text')?.text ?? '';
      return {
        isError: result.isError === true,
        output: result.structuredContent as Record<string, unknown> | undefined,
        text,
      };
    },
    exchanges: () => own,
    close: () => client.close(),
  };
}
