/**
 * The OpenAPI links of the contract (OAS 3.1 §4.8.20) are what stateful fuzzing follows, so each must lead
 * somewhere real: its target operation exists, it names only parameters the target has and fills every
 * required path parameter, and each runtime expression (§4.8.20.4) resolves, in the source response's own
 * examples, to a value the target parameter accepts.
 */
import { describe, expect, test } from 'vitest';
import type { ParameterObject } from 'openapi-typescript';
import { loadContract } from '../../src/contract/load.js';
import { findOperation, listOperations, type OperationEntry } from '../../src/contract/operations.js';
import { childPointer, resolve, valueAt } from '../../src/contract/pointer.js';
import { createContractValidator } from '../../src/contract/validator.js';

interface LinkObject {
  operationId: string;
  parameters?: Record<string, unknown>;
  description?: string;
}

interface LinkEntry {
  source: OperationEntry;
  status: string;
  name: string;
  link: LinkObject;
  responsePointer: string;
}

interface ParameterEntry {
  parameter: ParameterObject;
  schemaPointer: string;
}

const document = loadContract();
const validator = createContractValidator(document);

function linksOf(source: OperationEntry): LinkEntry[] {
  return Object.keys(source.operation.responses ?? {}).flatMap((status) => {
    const response = resolve<{ links?: Record<string, LinkObject> }>(
      document,
      childPointer(source.pointer, 'responses', status),
    );
    return Object.entries(response.node.links ?? {}).map(([name, link]) => ({
      source,
      status,
      name,
      link,
      responsePointer: response.pointer,
    }));
  });
}

const links = listOperations(document).flatMap(linksOf);

/** Path-item and operation parameters; an operation-level one overrides its namesake (OAS 3.1 §4.8.10). */
function parametersOf(entry: OperationEntry): Map<string, ParameterEntry> {
  const pointers = [
    ...((valueAt(document, entry.pathItemPointer) as { parameters?: unknown[] }).parameters ?? []).map((_, index) =>
      childPointer(entry.pathItemPointer, 'parameters', index),
    ),
    ...(entry.operation.parameters ?? []).map((_, index) => childPointer(entry.pointer, 'parameters', index)),
  ];
  const parameters = new Map<string, ParameterEntry>();
  for (const pointer of pointers) {
    const { node, pointer: at } = resolve<ParameterObject>(document, pointer);
    parameters.set(node.name, { parameter: node, schemaPointer: childPointer(at, 'schema') });
  }
  return parameters;
}

/** The JSON example values of a response, by name. */
function responseExamples(responsePointer: string): Array<[string, unknown]> {
  const media = valueAt(document, childPointer(responsePointer, 'content', 'application/json')) as
    { examples?: Record<string, unknown> } | undefined;
  return Object.keys(media?.examples ?? {}).map((name) => [
    name,
    resolve<{ value: unknown }>(
      document,
      childPointer(responsePointer, 'content', 'application/json', 'examples', name),
    ).node.value,
  ]);
}

const label = ({ source, status, name }: LinkEntry) => `${source.operationId} ${status} ${name}`;

describe('links', () => {
  test('the contract has links', () => {
    expect(links.length).toBeGreaterThan(30);
  });

  test.each(links.map((entry) => [label(entry), entry] as const))('%s', (_, entry) => {
    const target = findOperation(document, entry.link.operationId);
    expect(target, `target ${entry.link.operationId}`).toBeDefined();
    if (target === undefined) {
      return;
    }
    expect(entry.link.description, 'every link says what it is for').toBeTruthy();
    const targetParameters = parametersOf(target);
    const given = entry.link.parameters ?? {};
    const requiredPath = [...targetParameters.values()]
      .filter(({ parameter }) => parameter.in === 'path')
      .map(({ parameter }) => parameter.name);
    expect(Object.keys(given)).toEqual(expect.arrayContaining(requiredPath));

    for (const [name, expression] of Object.entries(given)) {
      const targetParameter = targetParameters.get(name);
      expect(targetParameter, `${name} is a parameter of ${target.operationId}`).toBeDefined();
      if (targetParameter === undefined || typeof expression !== 'string') {
        continue;
      }
      const accepts = (value: unknown) => validator.validate(targetParameter.schemaPointer, value).valid;
      if (expression.startsWith('$response.body#')) {
        const pointer = expression.slice('$response.body'.length);
        const found = responseExamples(entry.responsePointer)
          .map(([, example]) => valueAt(example, pointer))
          .filter((value) => value !== undefined);
        expect(found.length, `${expression} resolves in an example of the response`).toBeGreaterThan(0);
        // `null` (a last page's `next_cursor`) gives the link nothing to follow; every value must be accepted.
        expect(found.filter((value) => value !== null && !accepts(value))).toEqual([]);
      } else if (expression.startsWith('$request.path.')) {
        const sourceParameter = parametersOf(entry.source).get(expression.slice('$request.path.'.length));
        expect(sourceParameter?.parameter.in, `${expression} is a path parameter of the source`).toBe('path');
      } else {
        expect(expression.startsWith('$'), `${expression} is a supported runtime expression`).toBe(false);
        // A constant is the parameter's text on the wire: `'true'` for a boolean query parameter.
        expect(accepts(JSON.parse(expression))).toBe(true);
      }
    }
  });

  test('every published start response leads to its session', () => {
    const start = links.filter(({ source, status }) => source.operationId === 'startSession' && status === '202');
    const toSession = start.filter(({ link }) => link.operationId === 'getSession');
    for (const [name, example] of responseExamples(toSession[0]?.responsePointer ?? '#/none')) {
      const ids = toSession
        .map(({ link }) => link.parameters?.['id'])
        .map((expression) => (typeof expression === 'string' ? expression : ''))
        .map((expression) => valueAt(example, expression.slice('$response.body'.length)))
        .filter((value) => value !== undefined);
      expect(ids, `start response example ${name}`).toHaveLength(1);
    }
  });

  test.each([
    ['startSession', 'getSession'],
    ['getSession', 'streamSessionEvents'],
    ['getSession', 'getOutcomes'],
    ['getSession', 'forkSession'],
    ['getSession', 'cancelSession'],
    ['getSession', 'deleteSession'],
    ['createWebhook', 'listWebhookDeliveries'],
    ['createWebhook', 'updateWebhook'],
    ['createWebhook', 'deleteWebhook'],
    ['getSession', 'createShare'],
    ['createShare', 'listShares'],
    ['listShares', 'revokeShare'],
    ['getSession', 'captureDecision'],
    ['captureDecision', 'listDecisions'],
    ['listSessions', 'listSessions'],
  ])('the flow %s → %s is linked', (from, to) => {
    expect(links.some(({ source, link }) => source.operationId === from && link.operationId === to)).toBe(true);
  });
});
