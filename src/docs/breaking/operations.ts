/**
 * The breaking changes between the released contract and the contract now, operation by operation.
 * Only `/v1` is guarded: paths of a later version (`/v2/...`) are free to differ, and the unversioned
 * resource paths belong to v1 (seed "Versioning" 1). Webhooks are guarded whatever their name.
 * @module
 */
import type { OpenApiDocument } from '../../contract/load.js';
import { listOperations, type OperationEntry } from '../../contract/operations.js';
import { childPointer, resolve, valueAt } from '../../contract/pointer.js';
import { operationLabel } from '../labels.js';
import type { BreakingChange, BreakingRule, Direction } from './rules.js';
import { compareSchemas, type SchemaComparison } from './schema.js';

type Node = Record<string, unknown>;

interface Parameter {
  label: string;
  pointer: string;
  node: Node;
}

/** Whether a path belongs to the guarded version: `/v1/...` or a path with no version segment. */
export function isGuarded(entry: Pick<OperationEntry, 'source' | 'path'>): boolean {
  const version = /^\/v(\d+)\//.exec(entry.path)?.[1];
  return entry.source === 'webhooks' || version === undefined || version === '1';
}

const template = (path: string): string => path.replace(/\{[^}]*\}/g, '{}');

/** The parameters in effect (path item and operation, OAS 3.1 §4.8.9.1), keyed by location and name. */
function parametersOf(document: OpenApiDocument, entry: OperationEntry): Map<string, Parameter> {
  const placeholders = [...entry.path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]);
  const parameters = new Map<string, Parameter>();
  for (const owner of [entry.pathItemPointer, entry.pointer]) {
    const list = (valueAt(document, owner) as Node)['parameters'];
    (Array.isArray(list) ? list : []).forEach((_, index) => {
      const { node, pointer } = resolve<Node>(document, childPointer(owner, 'parameters', index));
      const name = String(node['name']);
      const location = String(node['in']);
      // Path parameters pair by position, so a renamed one is compared rather than lost.
      const key =
        location === 'path'
          ? `path#${placeholders.indexOf(name)}`
          : `${location}:${location === 'header' ? name.toLowerCase() : name}`;
      parameters.set(key, { label: `${location} parameter ${name}`, pointer, node });
    });
  }
  return parameters;
}

function contentOf(
  document: OpenApiDocument,
  pointer: string | undefined,
): { pointer: string; node: Node } | undefined {
  return pointer === undefined || valueAt(document, pointer) === undefined
    ? undefined
    : resolve<Node>(document, pointer);
}

class OperationComparison {
  constructor(
    private readonly base: OpenApiDocument,
    private readonly head: OpenApiDocument,
    private readonly report: (rule: BreakingRule, where: string, component?: string) => void,
  ) {}

  /** Compares two schemas; inside them, `where` continues as a JSONPath from `$` (`$.memo.verdict`). */
  private schemas(direction: Direction, basePointer: string, headPointer: string, where: string): void {
    const ctx: SchemaComparison = { base: this.base, head: this.head, direction, report: this.report, seen: new Set() };
    compareSchemas(ctx, basePointer, headPointer, `${where} $`);
  }

  parameters(baseEntry: OperationEntry, headEntry: OperationEntry, direction: Direction): void {
    const before = parametersOf(this.base, baseEntry);
    const after = parametersOf(this.head, headEntry);
    for (const [key, parameter] of before) {
      const now = after.get(key);
      if (now === undefined) {
        this.report('parameter-removed', parameter.label);
      } else if (parameter.node['schema'] !== undefined && now.node['schema'] !== undefined) {
        this.schemas(
          direction,
          childPointer(parameter.pointer, 'schema'),
          childPointer(now.pointer, 'schema'),
          parameter.label,
        );
      }
    }
    if (direction === 'request') {
      for (const [key, parameter] of after) {
        if (parameter.node['required'] === true && before.get(key)?.node['required'] !== true) {
          this.report('parameter-became-required', parameter.label);
        }
      }
    }
  }

  /** Media types of a request body or response and their schemas; `where` names the holder. */
  content(
    direction: Direction,
    base: { pointer: string; node: Node },
    head: { pointer: string; node: Node },
    where: string,
  ): void {
    const headContent = (head.node['content'] ?? {}) as Node;
    for (const mediaType of Object.keys(base.node['content'] ?? {})) {
      const label = `${where} ${mediaType}`;
      if (!(mediaType in headContent)) {
        this.report('media-type-removed', label);
        continue;
      }
      const baseMedia = resolve<Node>(this.base, childPointer(base.pointer, 'content', mediaType));
      const headMedia = resolve<Node>(this.head, childPointer(head.pointer, 'content', mediaType));
      if (baseMedia.node['schema'] !== undefined && headMedia.node['schema'] !== undefined) {
        this.schemas(
          direction,
          childPointer(baseMedia.pointer, 'schema'),
          childPointer(headMedia.pointer, 'schema'),
          label,
        );
      }
    }
  }

  requestBody(baseEntry: OperationEntry, headEntry: OperationEntry, direction: Direction): void {
    const base = contentOf(
      this.base,
      baseEntry.operation.requestBody === undefined ? undefined : childPointer(baseEntry.pointer, 'requestBody'),
    );
    const head = contentOf(
      this.head,
      headEntry.operation.requestBody === undefined ? undefined : childPointer(headEntry.pointer, 'requestBody'),
    );
    if (direction === 'request' && head?.node['required'] === true && base?.node['required'] !== true) {
      this.report('request-body-became-required', 'request body');
    }
    if (base !== undefined) {
      this.content(
        direction,
        base,
        head ?? { pointer: '#', node: {} },
        direction === 'request' ? 'request body' : 'payload',
      );
    }
  }

  responses(baseEntry: OperationEntry, headEntry: OperationEntry): void {
    const headResponses = (headEntry.operation.responses ?? {}) as Node;
    for (const status of Object.keys(baseEntry.operation.responses ?? {})) {
      if (!(status in headResponses)) {
        if (status.startsWith('2')) {
          this.report('response-removed', `response ${status}`);
        }
        continue;
      }
      const base = resolve<Node>(this.base, childPointer(baseEntry.pointer, 'responses', status));
      const head = resolve<Node>(this.head, childPointer(headEntry.pointer, 'responses', status));
      const headHeaders = new Map(
        Object.keys((head.node['headers'] ?? {}) as Node).map((name) => [name.toLowerCase(), name]),
      );
      for (const name of Object.keys(base.node['headers'] ?? {})) {
        const headName = headHeaders.get(name.toLowerCase());
        if (headName === undefined) {
          this.report('response-header-removed', `response ${status} header ${name}`);
          continue;
        }
        const baseHeader = resolve<Node>(this.base, childPointer(base.pointer, 'headers', name));
        const headHeader = resolve<Node>(this.head, childPointer(head.pointer, 'headers', headName));
        if (baseHeader.node['schema'] !== undefined && headHeader.node['schema'] !== undefined) {
          this.schemas(
            'response',
            childPointer(baseHeader.pointer, 'schema'),
            childPointer(headHeader.pointer, 'schema'),
            `response ${status} header ${name}`,
          );
        }
      }
      this.content('response', base, head, `response ${status}`);
    }
  }
}

function findCounterpart(heads: OperationEntry[], entry: OperationEntry): OperationEntry | undefined {
  const candidates = heads.filter((head) => head.source === entry.source && head.method === entry.method);
  return (
    candidates.find((head) => head.path === entry.path) ??
    candidates.find((head) => entry.source === 'paths' && template(head.path) === template(entry.path))
  );
}

/** Every breaking change from `base` (the released contract) to `head`, in `base`'s operation order. */
export function breakingChanges(base: OpenApiDocument, head: OpenApiDocument): BreakingChange[] {
  const findings = new Map<string, BreakingChange>();
  const heads = listOperations(head);
  for (const entry of listOperations(base).filter(isGuarded)) {
    const operation = operationLabel(entry);
    const report = (rule: BreakingRule, where: string, component?: string): void => {
      const finding: BreakingChange =
        component === undefined ? { rule, operation, where } : { rule, operation, where, component };
      findings.set(`${rule}|${operation}|${where}`, finding);
    };
    const counterpart = findCounterpart(heads, entry);
    if (counterpart === undefined) {
      report('operation-removed', entry.source === 'webhooks' ? 'webhook' : 'operation');
      continue;
    }
    if (counterpart.path !== entry.path) {
      report('path-parameter-renamed', `path now ${counterpart.path}`);
    }
    if (entry.operationId !== undefined && counterpart.operationId !== entry.operationId) {
      report('operation-id-changed', `operationId now ${String(counterpart.operationId)}`);
    }
    // A webhook is a request the service sends: its receiver reads headers and payload like a response.
    const direction: Direction = entry.source === 'webhooks' ? 'response' : 'request';
    const comparison = new OperationComparison(base, head, report);
    comparison.parameters(entry, counterpart, direction);
    comparison.requestBody(entry, counterpart, direction);
    if (entry.source === 'paths') {
      comparison.responses(entry, counterpart);
    }
  }
  return [...findings.values()];
}
