/**
 * The coverage the relayed traffic achieved (after Specmatic's API coverage report): every operation of
 * the contract with its calls and the statuses seen, the documented statuses not seen, every `oneOf`
 * variant set with how often each branch was seen, and the stream events seen against those documented.
 * @module
 */
import { eventNames } from '../../contract/event-schemas.js';
import type { OpenApiDocument } from '../../contract/load.js';
import type { ResponseObject } from '../../contract/openapi-objects.js';
import { listOperations } from '../../contract/operations.js';
import { childPointer, resolve } from '../../contract/pointer.js';
import type { VariantSet } from '../../contract/variants.js';
import { schemaName, type SeenVariant } from './variants-seen.js';

export interface OperationTraffic {
  operationId: string;
  method: string;
  path: string;
  calls: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** Status codes the contract documents that no answer had (`default` and ranges left out). */
  unseenStatuses: string[];
}

export interface Seen {
  name: string;
  seen: number;
  /** `false` for something the traffic showed that the contract does not name. */
  documented: boolean;
}

export interface TrafficCoverage {
  operations: OperationTraffic[];
  variants: Array<{ set: string; branches: Seen[] }>;
  streamEvents: Seen[];
  /** Requests for a path or method the contract does not have. */
  unknownRequests: number;
  summary: Record<'operations' | 'statuses' | 'variants' | 'streamEvents', { documented: number; seen: number }>;
}

export interface CoverageTally {
  call(operationId: string | undefined): void;
  status(operationId: string, status: number): void;
  variants(seen: readonly SeenVariant[]): void;
  event(name: string): void;
  result(): TrafficCoverage;
}

function streamEventsOf(document: OpenApiDocument): string[] {
  const names = new Set<string>();
  for (const operation of listOperations(document).filter((entry) => entry.source === 'paths')) {
    for (const key of Object.keys(operation.operation.responses ?? {})) {
      const response = resolve<ResponseObject>(document, childPointer(operation.pointer, 'responses', key));
      if (response.node.content?.['text/event-stream']?.schema !== undefined) {
        const schema = childPointer(response.pointer, 'content', 'text/event-stream', 'schema');
        eventNames(document, schema).forEach((name) => names.add(name));
      }
    }
  }
  return [...names];
}

function seenList(documented: readonly string[], counts: ReadonlyMap<string, number>): Seen[] {
  const extra = [...counts.keys()].filter((name) => !documented.includes(name)).sort();
  return [...documented, ...extra].map((name) => ({
    name,
    seen: counts.get(name) ?? 0,
    documented: documented.includes(name),
  }));
}

const increment = (counts: Map<string, number>, name: string): void => {
  counts.set(name, (counts.get(name) ?? 0) + 1);
};

export function createCoverageTally(document: OpenApiDocument, sets: readonly VariantSet[]): CoverageTally {
  const entries = listOperations(document).filter((entry) => entry.source === 'paths' && entry.operationId);
  const calls = new Map<string, number>();
  const statuses = new Map<string, Record<string, number>>();
  const variants = new Map<string, number>();
  const events = new Map<string, number>();
  const documentedEvents = streamEventsOf(document);
  let unknownRequests = 0;

  function result(): TrafficCoverage {
    const operations = entries.map((entry) => {
      const seen = statuses.get(entry.operationId!) ?? {};
      const documented = Object.keys(entry.operation.responses ?? {}).filter((key) => /^\d{3}$/.test(key));
      return {
        operationId: entry.operationId!,
        method: entry.method.toUpperCase(),
        path: entry.path,
        calls: calls.get(entry.operationId!) ?? 0,
        statuses: seen,
        unseenStatuses: documented.filter((status) => seen[status] === undefined),
      };
    });
    const variantSets = sets.map((set) => {
      const name = schemaName(set.pointer);
      const branches = set.branches.map((branch) => schemaName(branch.target));
      const counts = new Map(branches.map((branch) => [branch, variants.get(`${name} ${branch}`) ?? 0]));
      return { set: name, branches: seenList(branches, counts) };
    });
    const streamEvents = seenList(documentedEvents, events);
    const documentedStatuses = operations.flatMap((operation) =>
      Object.keys(entries.find((entry) => entry.operationId === operation.operationId)!.operation.responses ?? {})
        .filter((key) => /^\d{3}$/.test(key))
        .map((status) => operation.statuses[status] !== undefined),
    );
    const branches = variantSets.flatMap((set) => set.branches);
    return {
      operations,
      variants: variantSets,
      streamEvents,
      unknownRequests,
      summary: {
        operations: { documented: operations.length, seen: operations.filter((one) => one.calls > 0).length },
        statuses: { documented: documentedStatuses.length, seen: documentedStatuses.filter(Boolean).length },
        variants: { documented: branches.length, seen: branches.filter((one) => one.seen > 0).length },
        streamEvents: {
          documented: documentedEvents.length,
          seen: streamEvents.filter((one) => one.documented && one.seen > 0).length,
        },
      },
    };
  }

  return {
    call(operationId) {
      if (operationId === undefined) {
        unknownRequests += 1;
      } else {
        increment(calls, operationId);
      }
    },
    status(operationId, status) {
      const record = statuses.get(operationId) ?? {};
      record[String(status)] = (record[String(status)] ?? 0) + 1;
      statuses.set(operationId, record);
    },
    variants(seen) {
      seen.forEach((one) => increment(variants, `${one.set} ${one.branch}`));
    },
    event(name) {
      increment(events, name);
    },
    result,
  };
}
