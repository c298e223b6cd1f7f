/**
 * The changes between two versions of the contract (the released copy and the contract now, or any two),
 * operation by operation. Only `/v1` is guarded against breaking changes: paths of a later version
 * (`/v2/...`) are free to differ, and the unversioned resource paths belong to v1 (seed "Versioning" 1).
 * Webhooks are guarded whatever their name. Changes outside the guard are still listed.
 * @module
 */
import type { OpenApiDocument } from '../../contract/load.js';
import { listOperations, type OperationEntry } from '../../contract/operations.js';
import { childPointer, resolve, valueAt } from '../../contract/pointer.js';
import { operationLabel } from '../labels.js';
import {
  classOf,
  type BreakingChange,
  type BreakingRule,
  type ChangePlace,
  type ChangeRule,
  type ContractChange,
  type Direction,
} from './rules.js';
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
    private readonly report: (rule: ChangeRule, where: string, component: string | undefined, at: ChangePlace) => void,
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
      const at = { base: parameter.pointer, revision: now?.pointer ?? headEntry.pointer };
      if (now === undefined) {
        this.report('parameter-removed', parameter.label, undefined, at);
        continue;
      }
      if (now.node['deprecated'] === true && parameter.node['deprecated'] !== true) {
        this.report('parameter-deprecated', parameter.label, undefined, at);
      }
      if (direction === 'request' && parameter.node['required'] === true && now.node['required'] !== true) {
        this.report('required-changed', parameter.label, undefined, at);
      }
      if (parameter.node['schema'] !== undefined && now.node['schema'] !== undefined) {
        this.schemas(
          direction,
          childPointer(parameter.pointer, 'schema'),
          childPointer(now.pointer, 'schema'),
          parameter.label,
        );
      }
    }
    for (const [key, parameter] of after) {
      const at = { base: before.get(key)?.pointer, revision: parameter.pointer };
      const required = direction === 'request' && parameter.node['required'] === true;
      if (required && before.get(key)?.node['required'] !== true) {
        this.report('parameter-became-required', parameter.label, undefined, at);
      } else if (!before.has(key)) {
        this.report('parameter-added', parameter.label, undefined, at);
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
    const baseContent = (base.node['content'] ?? {}) as Node;
    for (const mediaType of Object.keys(headContent).filter((name) => !(name in baseContent))) {
      this.report('media-type-added', `${where} ${mediaType}`, undefined, {
        revision: childPointer(head.pointer, 'content', mediaType),
      });
    }
    for (const mediaType of Object.keys(baseContent)) {
      const label = `${where} ${mediaType}`;
      if (!(mediaType in headContent)) {
        this.report('media-type-removed', label, undefined, {
          base: childPointer(base.pointer, 'content', mediaType),
          revision: head.pointer,
        });
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
      this.report('request-body-became-required', 'request body', undefined, { revision: head.pointer });
    }
    this.content(
      direction,
      base ?? { pointer: childPointer(baseEntry.pointer, 'requestBody'), node: {} },
      head ?? { pointer: headEntry.pointer, node: {} },
      direction === 'request' ? 'request body' : 'payload',
    );
  }

  responses(baseEntry: OperationEntry, headEntry: OperationEntry): void {
    const headResponses = (headEntry.operation.responses ?? {}) as Node;
    const baseResponses = (baseEntry.operation.responses ?? {}) as Node;
    for (const status of Object.keys(headResponses).filter((status) => !(status in baseResponses))) {
      this.report('response-added', `response ${status}`, undefined, {
        revision: childPointer(headEntry.pointer, 'responses', status),
      });
    }
    for (const status of Object.keys(baseResponses)) {
      if (!(status in headResponses)) {
        const at = { base: childPointer(baseEntry.pointer, 'responses', status), revision: headEntry.pointer };
        this.report(
          status.startsWith('2') ? 'response-removed' : 'error-response-removed',
          `response ${status}`,
          undefined,
          at,
        );
        continue;
      }
      const base = resolve<Node>(this.base, childPointer(baseEntry.pointer, 'responses', status));
      const head = resolve<Node>(this.head, childPointer(headEntry.pointer, 'responses', status));
      const headHeaders = new Map(
        Object.keys((head.node['headers'] ?? {}) as Node).map((name) => [name.toLowerCase(), name]),
      );
      const baseHeaders = new Set(Object.keys((base.node['headers'] ?? {}) as Node).map((name) => name.toLowerCase()));
      for (const [lower, name] of headHeaders) {
        if (!baseHeaders.has(lower)) {
          this.report('response-header-added', `response ${status} header ${name}`, undefined, {
            revision: childPointer(head.pointer, 'headers', name),
          });
        }
      }
      for (const name of Object.keys(base.node['headers'] ?? {})) {
        const headName = headHeaders.get(name.toLowerCase());
        if (headName === undefined) {
          this.report('response-header-removed', `response ${status} header ${name}`, undefined, {
            base: childPointer(base.pointer, 'headers', name),
            revision: head.pointer,
          });
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

/** The operation-level changes: identity, deprecation and the words that describe it. */
function compareOperation(
  entry: OperationEntry,
  counterpart: OperationEntry,
  report: (rule: ChangeRule, where: string, component: string | undefined, at: ChangePlace) => void,
): void {
  const at = { base: entry.pointer, revision: counterpart.pointer };
  if (counterpart.path !== entry.path) {
    report('path-parameter-renamed', `path now ${counterpart.path}`, undefined, at);
  }
  if (entry.operationId !== undefined && counterpart.operationId !== entry.operationId) {
    report('operation-id-changed', `operationId now ${String(counterpart.operationId)}`, undefined, at);
  }
  if (counterpart.operation.deprecated === true && entry.operation.deprecated !== true) {
    report('operation-deprecated', 'operation', undefined, at);
  }
  const words = (operation: OperationEntry['operation']): string =>
    JSON.stringify([operation.summary, operation.description]);
  if (words(entry.operation) !== words(counterpart.operation)) {
    report('description-changed', 'summary or description', undefined, at);
  }
}

/** Every change from `base` to `head` (the revision): in `base`'s operation order, then the operations added. */
export function contractChanges(base: OpenApiDocument, head: OpenApiDocument): ContractChange[] {
  const findings = new Map<string, ContractChange>();
  const heads = listOperations(head);
  const matched = new Set<OperationEntry>();
  const reporter =
    (entry: OperationEntry) =>
    (rule: ChangeRule, where: string, component: string | undefined, at: ChangePlace): void => {
      const operation = operationLabel(entry);
      const finding: ContractChange = { rule, class: classOf(rule), operation, where, guarded: isGuarded(entry), at };
      if (component !== undefined) {
        finding.component = component;
      }
      findings.set(`${rule}|${operation}|${where}`, finding);
    };
  for (const entry of listOperations(base)) {
    const report = reporter(entry);
    const counterpart = findCounterpart(heads, entry);
    if (counterpart === undefined) {
      report('operation-removed', entry.source === 'webhooks' ? 'webhook' : 'operation', undefined, {
        base: entry.pointer,
      });
      continue;
    }
    matched.add(counterpart);
    compareOperation(entry, counterpart, report);
    // A webhook is a request the service sends: its receiver reads headers and payload like a response.
    const direction: Direction = entry.source === 'webhooks' ? 'response' : 'request';
    const comparison = new OperationComparison(base, head, report);
    comparison.parameters(entry, counterpart, direction);
    comparison.requestBody(entry, counterpart, direction);
    if (entry.source === 'paths') {
      comparison.responses(entry, counterpart);
    }
  }
  for (const entry of heads.filter((head) => !matched.has(head))) {
    reporter(entry)('operation-added', entry.source === 'webhooks' ? 'webhook' : 'operation', undefined, {
      revision: entry.pointer,
    });
  }
  return [...findings.values()];
}

/** Every breaking change to a guarded operation from `base` (the released contract) to `head`. */
export function breakingChanges(base: OpenApiDocument, head: OpenApiDocument): BreakingChange[] {
  return contractChanges(base, head)
    .filter((change) => change.class === 'breaking' && change.guarded)
    .map(({ rule, operation, where, component }) => ({
      rule: rule as BreakingRule,
      operation,
      where,
      ...(component === undefined ? {} : { component }),
    }));
}
