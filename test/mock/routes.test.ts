/**
 * The front door's route table, compiled from the contract: every operation is reachable, the most
 * concrete template wins, and requests no operation takes are told apart as unknown paths (404) and
 * methods the path does not offer (405).
 */
import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { listOperations } from '../../src/contract/operations.js';
import { compileRoutes } from '../../src/mock/routes.js';

const contract = loadContract();
const table = compileRoutes(contract);

describe('the route table', () => {
  test('has exactly the contract operations', () => {
    const operations = listOperations(contract).filter((entry) => entry.source === 'paths');
    expect([...table.keys].sort()).toEqual(
      operations.map((entry) => `${entry.method.toUpperCase()} ${entry.path}`).sort(),
    );
  });

  test('routes every operation to itself, parameters filled in', () => {
    for (const key of table.keys) {
      const [method = '', template = ''] = key.split(' ');
      const path = template.replace(/\{[^}]+\}/g, 'x1');
      expect(table.route(method, path), key).toMatchObject({ kind: 'operation', key });
    }
  });

  test('prefers a literal segment to a template, from the left', () => {
    expect(table.route('POST', '/v1/sessions/plan')).toMatchObject({
      kind: 'operation',
      template: '/v1/sessions/plan',
    });
    expect(table.route('GET', '/v1/sessions/plan')).toEqual({
      kind: 'method-not-allowed',
      template: '/v1/sessions/plan',
      allow: ['POST'],
    });
    expect(table.route('GET', '/v1/sessions/ses_1/plan')).toMatchObject({
      kind: 'operation',
      template: '/v1/sessions/{id}/plan',
    });
  });

  test.each(['/', '/v1', '/v1/nope', '/v1/health/', '/v1/sessions//events', '/v1/sessions/a/b/c/d/e/f'])(
    '%s is an unknown path',
    (path) => {
      expect(table.route('GET', path)).toEqual({ kind: 'not-found' });
    },
  );

  test('a method the path does not offer lists the ones it does', () => {
    expect(table.route('PUT', '/v1/sessions')).toEqual({
      kind: 'method-not-allowed',
      template: '/v1/sessions',
      allow: ['GET', 'POST'],
    });
    expect(table.route('HEAD', '/v1/health')).toMatchObject({ kind: 'method-not-allowed', allow: ['GET'] });
  });
});
