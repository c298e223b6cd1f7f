/**
 * The coverage of a run (after Specmatic's API coverage report): which operations the run called and
 * with which statuses, which request and response variants, problem types, webhook events and stream
 * events it saw, against what the contract documents. Every item names the requirements that cover it
 * (requirements/coverage.ts), so each gap says which requirement would close it.
 * @module
 */
import type { ResponseObject } from '../../src/contract/openapi-objects.js';
import { listOperations } from '../../src/contract/operations.js';
import { childPointer, resolve } from '../../src/contract/pointer.js';
import { parseEventStream } from '../../src/contract/sse.js';
import {
  alternativeKinds,
  coverageMap,
  itemKinds,
  type CoverageKind,
  notExpectedInAConformingRun,
} from '../requirements/coverage.js';
import { type Contract, pathRelativeTo } from './contract.js';
import { type Exchange, jsonOf, mediaTypeOf } from './exchange.js';
import { startVariantOf } from './sessions.js';

export interface OperationCoverage {
  operationId: string;
  method: string;
  path: string;
  /** Requests the run sent to it (event-stream connections included). */
  calls: number;
  /** Responses by status code. */
  statuses: Record<string, number>;
  /** Answered at least once with a success (2xx): the operation did what it is for, not only refused. */
  exercised: boolean;
  /** Status codes the contract documents that the run did not see (`default` and `NXX` left out). */
  unseenStatuses: string[];
  /** The checks whose requests it answered with a success. */
  checks: string[];
  /** The requirements that call it (requirements/coverage.ts). */
  requirements: string[];
}

/** A documented item (a variant, a problem type, an event name) and how often the run saw it. */
export interface ItemCoverage {
  name: string;
  seen: number;
  /** The contract documents it; `false` for something the target sent that the contract does not name. */
  documented: boolean;
  /** The checks whose traffic showed it (empty for webhook deliveries, which arrive on their own). */
  checks: string[];
  requirements: string[];
}

export interface CoverageGap {
  kind: CoverageKind;
  item: string;
  /** The requirements that would cover it; empty when none does yet. */
  requirements: string[];
}

export interface Coverage {
  operations: OperationCoverage[];
  startRequestVariants: ItemCoverage[];
  startResponseVariants: ItemCoverage[];
  webhookEnvelopes: ItemCoverage[];
  problemTypes: ItemCoverage[];
  webhookEvents: ItemCoverage[];
  streamEvents: ItemCoverage[];
  /** Documented items the run did not see, each with the requirements that would cover it. */
  gaps: CoverageGap[];
  summary: Record<CoverageKind, { documented: number; seen: number }>;
}

/** A webhook delivery as the receiver recorded it. */
export interface ReceivedDelivery {
  headers: Record<string, string>;
  body: string;
  /** The check whose receiver endpoint it reached, when known. */
  check?: string;
}

export interface CoverageInput {
  contract: Contract;
  baseUrl: string;
  exchanges: readonly Exchange[];
  deliveries: readonly ReceivedDelivery[];
}

class Tally {
  readonly #items = new Map<string, { seen: number; checks: Set<string> }>();

  add(name: string, check?: string): void {
    const item = this.#items.get(name) ?? { seen: 0, checks: new Set<string>() };
    item.seen++;
    if (check !== undefined) {
      item.checks.add(check);
    }
    this.#items.set(name, item);
  }

  items(kind: CoverageKind, documented: readonly string[]): ItemCoverage[] {
    const names = [...documented, ...[...this.#items.keys()].filter((name) => !documented.includes(name)).sort()];
    return names.map((name) => ({
      name,
      seen: this.#items.get(name)?.seen ?? 0,
      documented: documented.includes(name),
      checks: [...(this.#items.get(name)?.checks ?? [])].sort(),
      requirements: [...(coverageMap[kind][name] ?? [])],
    }));
  }
}

/** The event names a text/event-stream response documents: the `event` const of each `oneOf` branch. */
export function documentedStreamEvents(contract: Contract): string[] {
  const names = new Set<string>();
  for (const operation of listOperations(contract.document).filter((entry) => entry.source === 'paths')) {
    for (const key of Object.keys(operation.operation.responses ?? {})) {
      const response = resolve<ResponseObject>(contract.document, childPointer(operation.pointer, 'responses', key));
      const media = (response.node.content ?? {})['text/event-stream'];
      if (media?.schema === undefined) {
        continue;
      }
      const schema = resolve<{ oneOf?: unknown[] }>(
        contract.document,
        childPointer(response.pointer, 'content', 'text/event-stream', 'schema'),
      );
      const branches =
        schema.node.oneOf === undefined
          ? [schema.pointer]
          : schema.node.oneOf.map((_, index) => childPointer(schema.pointer, 'oneOf', index));
      for (const pointer of branches) {
        const name = resolve<{ properties?: { event?: { const?: unknown } } }>(contract.document, pointer).node
          .properties?.event?.const;
        if (typeof name === 'string') {
          names.add(name);
        }
      }
    }
  }
  return [...names];
}

/** The event name of a delivery: the seed's header, the legacy header, or the body's `event` / `type`. */
function deliveredEvent(delivery: ReceivedDelivery): string | undefined {
  const legacy = delivery.headers['x-mcp-event'];
  if (legacy !== undefined) {
    return `legacy.${legacy}`;
  }
  const body = jsonOfText(delivery.body);
  return (
    delivery.headers['x-service-event'] ??
    (typeof body?.['event'] === 'string'
      ? body['event']
      : typeof body?.['type'] === 'string'
        ? body['type']
        : undefined)
  );
}

/** The envelope form of a delivery body: the seed's (`event`, `data`) or the published one (`id`, `type`, `data`). */
function envelopeOf(delivery: ReceivedDelivery): string | undefined {
  const body = jsonOfText(delivery.body);
  if (body === undefined || delivery.headers['x-mcp-event'] !== undefined) {
    return undefined;
  }
  return typeof body['event'] === 'string'
    ? 'seed'
    : typeof body['type'] === 'string' && typeof body['id'] === 'string'
      ? 'published'
      : 'unrecognised';
}

function jsonOfText(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function slugOf(exchange: Exchange): string | undefined {
  if (mediaTypeOf(exchange.response?.headers['content-type']) !== 'application/problem+json') {
    return undefined;
  }
  const type = (jsonOf(exchange) as { type?: unknown } | undefined)?.type;
  return typeof type === 'string' ? type.slice(type.lastIndexOf('/') + 1) : undefined;
}

function isSuccess(exchange: Exchange): boolean {
  const status = exchange.response?.status ?? 0;
  return status >= 200 && status < 300;
}

export function computeCoverage({ contract, baseUrl, exchanges, deliveries }: CoverageInput): Coverage {
  const entries = listOperations(contract.document).filter((entry) => entry.source === 'paths');
  const calls = new Map<string, { calls: number; statuses: Record<string, number>; checks: Set<string> }>();
  const tallies = {
    startRequest: new Tally(),
    startResponse: new Tally(),
    envelope: new Tally(),
    problem: new Tally(),
    webhook: new Tally(),
    stream: new Tally(),
  };
  for (const exchange of exchanges.filter((one) => one.inbound !== true)) {
    // Unknown paths and methods are answered with problems too (PROB-011, PROB-012).
    const slug = slugOf(exchange);
    if (slug !== undefined) {
      tallies.problem.add(slug, exchange.check);
    }
    const operation = contract.operation(exchange.request.method, pathRelativeTo(baseUrl, exchange.request.url));
    if (operation?.operationId === undefined) {
      continue;
    }
    const record = calls.get(operation.operationId) ?? { calls: 0, statuses: {}, checks: new Set<string>() };
    record.calls++;
    if (exchange.response !== undefined) {
      const status = String(exchange.response.status);
      record.statuses[status] = (record.statuses[status] ?? 0) + 1;
    }
    if (isSuccess(exchange)) {
      record.checks.add(exchange.check);
    }
    calls.set(operation.operationId, record);
    if (operation.operationId === 'startSession' && isSuccess(exchange)) {
      const body = jsonOfText(exchange.request.body ?? '');
      tallies.startRequest.add(body?.['question'] !== undefined ? 'B' : 'A', exchange.check);
      tallies.startResponse.add(startVariantOf(contract, jsonOf(exchange)) ?? 'unrecognised', exchange.check);
    }
    if (exchange.stream === true && exchange.response !== undefined && isSuccess(exchange)) {
      parseEventStream(exchange.response.body).events.forEach((event) =>
        tallies.stream.add(event.event, exchange.check),
      );
    }
  }
  for (const delivery of deliveries) {
    const event = deliveredEvent(delivery);
    if (event !== undefined) {
      tallies.webhook.add(event, delivery.check);
    }
    const envelope = envelopeOf(delivery);
    if (envelope !== undefined) {
      tallies.envelope.add(envelope, delivery.check);
    }
  }
  const operations: OperationCoverage[] = entries.map((entry) => {
    const record = calls.get(entry.operationId!) ?? { calls: 0, statuses: {}, checks: new Set<string>() };
    const documented = Object.keys(entry.operation.responses ?? {}).filter((key) => /^\d{3}$/.test(key));
    return {
      operationId: entry.operationId!,
      method: entry.method.toUpperCase(),
      path: entry.path,
      calls: record.calls,
      statuses: record.statuses,
      exercised: record.checks.size > 0,
      unseenStatuses: documented.filter((status) => record.statuses[status] === undefined),
      checks: [...record.checks].sort(),
      requirements: [...(coverageMap.operations[entry.operationId!] ?? [])],
    };
  });
  const webhookNames = Object.keys(contract.document.webhooks ?? {});
  const coverage = {
    operations,
    startRequestVariants: tallies.startRequest.items('startRequestVariants', ['A', 'B']),
    startResponseVariants: tallies.startResponse.items('startResponseVariants', ['A1', 'A2', 'B']),
    webhookEnvelopes: tallies.envelope.items('webhookEnvelopes', ['seed', 'published']),
    problemTypes: tallies.problem.items(
      'problemTypes',
      contract.problemTypes.map((type) => type.slug),
    ),
    webhookEvents: tallies.webhook.items('webhookEvents', webhookNames),
    streamEvents: tallies.stream.items('streamEvents', documentedStreamEvents(contract)),
  };
  return { ...coverage, gaps: gapsOf(coverage), summary: summaryOf(coverage) };
}

type Listed = Omit<Coverage, 'gaps' | 'summary'>;

function gapsOf(coverage: Listed): CoverageGap[] {
  const gaps: CoverageGap[] = coverage.operations
    .filter((operation) => !operation.exercised)
    .map((operation) => ({
      kind: 'operations',
      item: `${operation.operationId} (${operation.method} ${operation.path})`,
      requirements: operation.requirements,
    }));
  for (const kind of itemKinds) {
    if (alternativeKinds.includes(kind) && coverage[kind].some((item) => item.documented && item.seen > 0)) {
      continue;
    }
    coverage[kind]
      .filter((item) => item.documented && item.seen === 0 && !notExpectedInAConformingRun[kind].includes(item.name))
      .forEach((item) => gaps.push({ kind, item: item.name, requirements: item.requirements }));
  }
  return gaps;
}

function summaryOf(coverage: Listed): Coverage['summary'] {
  const summary = {
    operations: {
      documented: coverage.operations.length,
      seen: coverage.operations.filter((operation) => operation.exercised).length,
    },
  } as Coverage['summary'];
  for (const kind of itemKinds) {
    const documented = coverage[kind].filter(
      (item) => item.documented && !notExpectedInAConformingRun[kind].includes(item.name),
    );
    summary[kind] = { documented: documented.length, seen: documented.filter((item) => item.seen > 0).length };
  }
  return summary;
}
