/**
 * The proxy's relay: each request is checked (`request-check.ts`), sent on to the upstream
 * (`forward.ts`), and its answer checked on the way back (`response-check.ts`). A JSON answer is read
 * whole, checked, then passed on; an event stream is passed on chunk by chunk as it arrives, each event
 * checked as it completes (`stream-check.ts`), so the client sees every event when the upstream sends
 * it; any other body (a PDF export) is passed on untouched. Violations are listed in the answer's
 * `sl-violations` header (as Prism's proxy does; an event stream's own violations come too late for a
 * header and are in the log and the report), logged, and recorded in the run (`traffic.ts`).
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationEntry } from '../../contract/operations.js';
import { problemHead, type ProblemTypes } from '../../contract/problem-types.js';
import type { OperationIndex } from '../engine.js';
import { problemBody } from '../refusals.js';
import { jsonMedia, queryOf } from '../request.js';
import type { RouteTable } from '../routes.js';
import type { Finding } from './findings.js';
import { endToEnd, flatHeaders, forward } from './forward.js';
import { logLine, parseBody, problem, readAll, violationsHeader } from './messages.js';
import { checkRequest } from './request-check.js';
import { checkBody, checkHead, type Contract } from './response-check.js';
import { relayStream } from './stream-relay.js';
import { cut, maskedHeaders, type ExchangeContext, type Traffic } from './traffic.js';
import type { SeenVariant } from './variants-seen.js';

export interface RelayContext {
  upstream: string;
  contract: Contract;
  routes: RouteTable;
  operations: ReadonlyMap<string, OperationEntry>;
  prismOperations: OperationIndex;
  catalogue: ProblemTypes;
  findVariants: (schemaPointer: string, value: unknown) => SeenVariant[];
  traffic: Traffic;
  /** Answer invalid requests with a problem instead of forwarding them, and invalid JSON answers with a 500. */
  errors: boolean;
  log(line: string): void;
  /** Called with the outcome of each attempt to reach the upstream. */
  reached(answered: boolean): void;
}

export function createRelay(context: RelayContext) {
  const { traffic, contract } = context;

  function record(exchange: ExchangeContext, findings: readonly Finding[]): void {
    for (const violation of traffic.add(exchange, findings)) {
      context.log(logLine(violation));
    }
  }

  return async function relay(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const target = incoming.url ?? '/';
    const mark = target.indexOf('?');
    const path = mark < 0 ? target : target.slice(0, mark);
    const method = (incoming.method ?? 'GET').toUpperCase();
    const route = context.routes.route(method, path);
    const operation = route.kind === 'operation' ? context.operations.get(route.key) : undefined;
    const operationId = operation?.operationId;
    const bytes = await readAll(incoming);
    const parsed = parseBody(bytes, incoming.headers['content-type']);
    const query = queryOf(mark < 0 ? '' : target.slice(mark + 1));
    // A browser's CORS preflight (Fetch standard §4.8) asks the server whether it may send the request, it
    // is no request of the API: relayed without checks and left out of the coverage.
    const preflight =
      method === 'OPTIONS' &&
      incoming.headers.origin !== undefined &&
      incoming.headers['access-control-request-method'] !== undefined;
    const requestFindings = preflight
      ? []
      : parsed.finding !== undefined
        ? [parsed.finding]
        : checkRequest(route, context.prismOperations, {
            method,
            path,
            query,
            headers: incoming.headers,
            body: parsed.value,
          });
    if (!preflight) {
      traffic.exchanges += 1;
      traffic.tally.call(operationId);
    }
    const body = cut(bytes.toString('utf8'));
    const exchange: ExchangeContext = {
      exchange: traffic.exchanges,
      operation: operationId,
      method,
      target,
      status: undefined,
      evidence: {
        method,
        target,
        requestHeaders: maskedHeaders(flatHeaders(incoming.headers)),
        ...(bytes.length === 0 ? {} : { requestBody: body.text }),
      },
    };
    if (context.errors && operation !== undefined && requestFindings.length > 0) {
      record(exchange, requestFindings);
      const errors = requestFindings.map((finding) => ({ pointer: finding.pointer, detail: finding.message }));
      const listed = errors.slice(0, 5).map((error) => `${error.pointer} ${error.detail}`);
      const refusal = {
        slug: 'invalid-request' as const,
        detail: `The request does not match the contract: ${listed.join('; ')}.`,
        errors,
      };
      const head = problemHead(context.catalogue, 'invalid-request');
      problem(outgoing, head.status, problemBody(head, refusal, path), violationsHeader(requestFindings));
      return;
    }
    const forwarded = forward(context.upstream, method, target, incoming.headers, bytes);
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) {
        forwarded.request.destroy();
      }
    });
    let answer: IncomingMessage;
    try {
      answer = await forwarded.response;
    } catch (error) {
      if (outgoing.destroyed) {
        return;
      }
      context.reached(false);
      traffic.unanswered += 1;
      record(exchange, requestFindings);
      const detail = `The upstream ${context.upstream} did not answer: ${error instanceof Error ? error.message : String(error)}`;
      problem(outgoing, 502, { type: 'about:blank', title: 'Bad Gateway', status: 502, detail });
      return;
    }
    context.reached(true);
    traffic.upstreamSeen = true;
    const status = answer.statusCode ?? 502;
    const headers = flatHeaders(answer.headers);
    const answered = { ...exchange, status, evidence: { ...exchange.evidence, status, responseHeaders: headers } };
    if (operationId !== undefined) {
      traffic.tally.status(operationId, status);
    }
    const head = operation === undefined ? { findings: [] } : checkHead(contract, operation, status, headers);
    const early = [...requestFindings, ...head.findings];
    if (head.mediaType === 'text/event-stream' && head.bodySchema !== undefined) {
      outgoing.writeHead(status, { ...endToEnd(answer.headers), ...violationsHeader(early) });
      outgoing.flushHeaders();
      record(answered, early);
      relayStream(
        { contract, traffic, findVariants: context.findVariants, record },
        answer,
        outgoing,
        answered,
        head.bodySchema,
      );
      return;
    }
    if (head.bodySchema === undefined || !jsonMedia.test(headers['content-type'] ?? '')) {
      record(answered, early);
      outgoing.writeHead(status, { ...endToEnd(answer.headers), ...violationsHeader(early) });
      answer.pipe(outgoing);
      return;
    }
    const text = (await readAll(answer)).toString('utf8');
    const bodyFindings = checkBody(contract, head, status, text);
    if (bodyFindings.length === 0) {
      traffic.tally.variants(context.findVariants(head.bodySchema, JSON.parse(text)));
    }
    const kept = cut(text);
    const evidence = { ...answered.evidence, responseBody: kept.text, ...(kept.truncated ? { truncated: true } : {}) };
    const all = [...early, ...bodyFindings];
    record({ ...answered, evidence }, all);
    if (context.errors && bodyFindings.length > 0) {
      const internal = problemHead(context.catalogue, 'internal-error');
      const detail = `The upstream's ${status} answer does not match the contract: ${bodyFindings
        .slice(0, 5)
        .map((finding) => `${finding.pointer} ${finding.message}`)
        .join('; ')}.`;
      problem(outgoing, internal.status, { ...internal, detail }, violationsHeader(all));
      return;
    }
    outgoing.writeHead(status, {
      ...endToEnd(answer.headers),
      ...violationsHeader(all),
      'content-length': Buffer.byteLength(text),
    });
    outgoing.end(text);
  };
}
