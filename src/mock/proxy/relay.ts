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
import { StringDecoder } from 'node:string_decoder';
import type { OperationEntry } from '../../contract/operations.js';
import { problemHead, type ProblemTypes } from '../../contract/problem-types.js';
import type { OperationIndex } from '../engine.js';
import { problemBody } from '../refusals.js';
import { jsonMedia, queryOf } from '../request.js';
import type { RouteTable } from '../routes.js';
import type { Finding, Violation } from './findings.js';
import { endToEnd, flatHeaders, forward } from './forward.js';
import { checkRequest } from './request-check.js';
import { checkBody, checkHead, type Contract } from './response-check.js';
import { createStreamCheck } from './stream-check.js';
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

/** Prism keeps `sl-violations` under common header size limits the same way. */
const violationsHeaderMax = 8 * 1024 - 100;

function readAll(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.once('end', () => resolve(Buffer.concat(chunks)));
    incoming.once('error', reject);
  });
}

function violationsHeader(findings: readonly Finding[]): Record<string, string> {
  if (findings.length === 0) {
    return {};
  }
  const listed = findings.map((finding) => ({
    location: [finding.kind, ...finding.pointer.replace(/^#\//, '').split('/')],
    severity: 'Error',
    message: `${finding.pointer} ${finding.message}`,
  }));
  const text = JSON.stringify(listed);
  return { 'sl-violations': text.length > violationsHeaderMax ? text.slice(0, violationsHeaderMax) : text };
}

function problem(response: ServerResponse, status: number, body: Record<string, unknown>, extra = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...extra,
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

function parseBody(bytes: Buffer, contentType: string | undefined): { value: unknown; finding?: Finding } {
  if (bytes.length === 0) {
    return { value: undefined };
  }
  const text = bytes.toString('utf8');
  if (!jsonMedia.test(contentType ?? '')) {
    return { value: text };
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = `is not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
    return { value: text, finding: { kind: 'request', pointer: '#/body', message } };
  }
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
    const requestFindings =
      parsed.finding !== undefined
        ? [parsed.finding]
        : checkRequest(route, context.prismOperations, {
            method,
            path,
            query,
            headers: incoming.headers,
            body: parsed.value,
          });
    traffic.exchanges += 1;
    traffic.tally.call(operationId);
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
      relayStream(answer, outgoing, answered, head.bodySchema);
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

  function relayStream(answer: IncomingMessage, outgoing: ServerResponse, exchange: ExchangeContext, schema: string) {
    const decoder = new StringDecoder('utf8');
    let text = '';
    const evidenceOf = (): ExchangeContext => {
      const kept = cut(text);
      return {
        ...exchange,
        evidence: { ...exchange.evidence, responseBody: kept.text, ...(kept.truncated ? { truncated: true } : {}) },
      };
    };
    const check = createStreamCheck(contract, schema, context.findVariants, {
      onEvent(event, findings, variants) {
        traffic.tally.event(event.event);
        traffic.tally.variants(variants);
        record(evidenceOf(), findings);
      },
      onEnd(findings) {
        record(evidenceOf(), findings);
      },
    });
    let ended = false;
    // A stream cut by either side ends in `close`; its error says nothing more.
    answer.on('error', () => undefined);
    answer.on('data', (chunk: Buffer) => {
      outgoing.write(chunk);
      const piece = decoder.write(chunk);
      text = text.length < 4096 ? text + piece : text;
      check.push(piece);
    });
    answer.once('end', () => {
      ended = true;
      check.push(decoder.end());
      check.end(true);
      outgoing.end();
    });
    answer.once('close', () => {
      if (!ended) {
        check.end(false);
        outgoing.destroy();
      }
    });
  }
}

export function logLine(violation: Violation): string {
  const where = `${violation.method} ${violation.target}${violation.status === undefined ? '' : ` → ${violation.status}`}`;
  const counted = violation.counted ? '' : ' (not counted by --fail-on)';
  return `Violation: ${violation.kind} ${where}: ${violation.pointer} ${violation.message}${counted}\n`;
}
