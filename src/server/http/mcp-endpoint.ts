/**
 * The MCP server of the consult tool (seed "What the service does" 6: consult turns go through the MCP
 * tool `service.consult.message`), served inside the HTTP application at the path the contract gives
 * (`x-mcp-tools[].endpoint`, `/mcp`) over MCP Streamable HTTP. It is stateless: every POST gets its own
 * MCP server and transport, so nothing is kept between requests but the store. The caller is
 * authenticated with the API's bearer keys and counted against the `messages` bucket before the
 * JSON-RPC message is read; those refusals are problems like any other answer of the API.
 * @module
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiVersionHeader } from '../domain/api-version.js';
import { authenticate, requireTier } from './auth.js';
import type { Principal } from '../ports/handlers.js';
import type { Services } from '../ports/services.js';
import { parseJsonBody } from './json-body.js';
import { ProblemError } from '../core/problems.js';
import { stateOf } from './request-state.js';
import { consultTool, type ConsultTool } from '../domain/mcp/consult-tool.js';
import { callConsultTool, type ToolCallChecks } from '../domain/mcp/tool-calls.js';
import { internalError } from '../core/internal-errors.js';

function mcpServer(services: Services, tool: ConsultTool, principal: Principal, checks: ToolCallChecks): Server {
  const server = new Server(
    { name: 'decision-board', title: 'Decision-Board', version: services.versions.current },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    if (request.params.name !== tool.name) {
      throw new McpError(ErrorCode.InvalidParams, `There is no tool ${request.params.name}; the tool is ${tool.name}.`);
    }
    return callConsultTool(services, principal.workspace, tool, request.params.arguments ?? {}, checks);
  });
  return server;
}

/**
 * The JSON-RPC message(s) of a POST, read by the REST API's own reader, so that bytes that are not UTF-8
 * and nesting deep enough to exhaust the SDK's recursive parsing are refused with the same problems.
 */
function jsonBody(request: FastifyRequest): unknown {
  const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new ProblemError(415, 'An MCP message must be sent as application/json.');
  }
  return parseJsonBody(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
}

/**
 * The MCP transport's HTTP adapter builds the request's URL from `Host` and answers a bare `400` without a
 * body when it cannot: a request without a usable `Host` (RFC 9112 section 3.2) is refused here instead,
 * with a problem, before it is counted against a bucket.
 */
function requireUsableHost(request: FastifyRequest): void {
  if (!URL.canParse(`http://${request.headers.host ?? ''}/`)) {
    throw new ProblemError(400, 'An MCP request needs a Host header naming this server (RFC 9112 section 3.2).');
  }
}

async function handlePost(
  services: Services,
  tool: ConsultTool,
  checks: ToolCallChecks,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  requireUsableHost(request);
  const principal = authenticate(services, request.headers.authorization);
  const apiVersion = services.versions.negotiate(
    request.headers[apiVersionHeader.toLowerCase()],
    principal.workspace.apiVersion,
  );
  const state = stateOf(request);
  if (state !== undefined) {
    // A problem answered from here on carries the caller's version and rate-limit headers.
    state.principal = principal;
    state.apiVersion = apiVersion;
  }
  requireTier(services, principal.workspace);
  const rateLimitHeaders = services.rateLimits.hit(
    `key:${principal.apiKey.id}`,
    'messages',
    principal.workspace.tier,
    services.clock.now(),
  ).headers;
  if (state !== undefined) {
    state.rateLimitHeaders = rateLimitHeaders;
  }
  const body = jsonBody(request);
  const server = mcpServer(services, tool, principal, checks);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  // From here the transport writes the answer, so the headers every answer carries are set on it.
  reply.hijack();
  reply.raw.setHeader(apiVersionHeader, apiVersion);
  for (const [name, value] of Object.entries(rateLimitHeaders)) {
    reply.raw.setHeader(name, value);
  }
  reply.raw.on('close', () => {
    // Not awaited, so a failure to close must be reported here rather than surface as an unhandled rejection.
    const report = (error: unknown): void => checks.onError?.(error);
    transport.close().catch(report);
    server.close().catch(report);
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, body);
  } catch (error) {
    // The SDK's HTTP adapter answers every failure it meets itself, so this is a guard against a future
    // version that does not: the reply is hijacked, Fastify's error handler cannot answer, and a socket
    // left open would keep the client waiting until it times out.
    checks.onError?.(error);
    if (!reply.raw.writableFinished) {
      reply.raw.destroy();
    }
  }
}

/** Mounts the MCP endpoint; methods other than POST are `405` with `Allow: POST`. */
export function registerMcpEndpoint(app: FastifyInstance, services: Services, checks: ToolCallChecks): void {
  const tool = consultTool(services.document);
  app.route({
    method: 'POST',
    url: tool.path,
    handler: (request, reply) => handlePost(services, tool, checks, request, reply),
  });
  app.route({
    method: app.supportedMethods.filter((method) => method !== 'POST'),
    url: tool.path,
    // Refused by the request hook, like a method the contract does not offer on a path.
    config: { allow: ['POST'] },
    handler: () => {
      throw internalError('BOARDKIT_PIPELINE_METHOD_NOT_OFFERED');
    },
  });
}
