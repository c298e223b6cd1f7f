/**
 * The coverage map (conformance/requirements/coverage.ts) against the contract and the registry: every
 * operation, variant, problem type, webhook event and stream event the contract documents has an entry,
 * nothing else has one, and every requirement it names exists. The reference run
 * (reference.test.ts) proves the ties hold: the checks of the named requirements really produce the item.
 */
import { describe, expect, test } from 'vitest';
import { loadSuiteContract } from '../../conformance/harness/contract.js';
import { computeCoverage, documentedStreamEvents } from '../../conformance/harness/coverage.js';
import { coverageMap } from '../../conformance/requirements/coverage.js';
import { findRequirement } from '../../conformance/requirements/index.js';
import { listOperations } from '../../src/contract/operations.js';

const contract = loadSuiteContract();

describe('the coverage map', () => {
  test('has one entry per operation of the contract, and no other', () => {
    const operationIds = listOperations(contract.document)
      .filter((entry) => entry.source === 'paths')
      .map((entry) => entry.operationId);
    expect(Object.keys(coverageMap.operations).sort()).toEqual([...operationIds].sort());
  });

  test('has one entry per problem type, webhook event and stream event of the contract', () => {
    expect(Object.keys(coverageMap.problemTypes).sort()).toEqual(contract.problemTypes.map((type) => type.slug).sort());
    expect(Object.keys(coverageMap.webhookEvents).sort()).toEqual(Object.keys(contract.document.webhooks ?? {}).sort());
    expect(Object.keys(coverageMap.streamEvents).sort()).toEqual(documentedStreamEvents(contract).sort());
  });

  test('the stream events are those of both event streams', () => {
    expect(documentedStreamEvents(contract).sort()).toEqual([
      'round.complete',
      'session.cancelled',
      'session.complete',
      'session.failed',
      'summary.final',
      'summary.update',
      'synth.message',
    ]);
  });

  test('names only requirements of the registry', () => {
    const named = Object.values(coverageMap).flatMap((entries) => Object.values(entries).flat());
    expect(named.filter((id) => findRequirement(id) === undefined)).toEqual([]);
  });

  test('every operation, problem type a conforming run can show, webhook event and stream event has a requirement that covers it', () => {
    const uncovered = (
      [
        'operations',
        'problemTypes',
        'webhookEvents',
        'streamEvents',
        'startRequestVariants',
        'startResponseVariants',
      ] as const
    ).flatMap((kind) =>
      Object.entries(coverageMap[kind])
        .filter(([, ids]) => ids.length === 0)
        .map(([name]) => `${kind} ${name}`),
    );
    expect(uncovered).toEqual([]);
  });
});

describe('the coverage of a run', () => {
  const base = 'http://127.0.0.1:1/api';
  const exchange = (id: number, method: string, path: string, status: number, body = '', extra: object = {}) => ({
    id,
    check: 'a.check',
    request: { method, url: `${base}${path}`, headers: {}, ...('request' in extra ? (extra.request as object) : {}) },
    response: {
      status,
      headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
      body,
    },
    startedAt: 0,
    durationMs: 1,
    ...('stream' in extra ? { stream: true } : {}),
  });
  const coverage = computeCoverage({
    contract,
    baseUrl: base,
    exchanges: [
      exchange(1, 'POST', '/v1/sessions', 202, '{"session_id":"ses_x"}', {
        request: { body: '{"question":"Should we?"}' },
      }),
      exchange(
        2,
        'GET',
        '/v1/sessions/ses_x',
        401,
        '{"type":"https://errors.example/unauthorized","title":"Unauthorized","status":401}',
      ),
      exchange(
        3,
        'PUT',
        '/v1/sessions',
        405,
        '{"type":"https://errors.example/method-not-allowed","title":"Method Not Allowed","status":405}',
      ),
      exchange(
        4,
        'GET',
        '/v1/sessions/ses_x/events',
        200,
        'event: synth.message\nid: 1\ndata: {}\n\nevent: made.up\nid: 2\ndata: {}\n\n',
        { stream: true },
      ),
    ],
    deliveries: [
      {
        headers: { 'x-service-event': 'session.cancelled' },
        body: '{"event":"session.cancelled","data":{}}',
        check: 'webhooks.delivery',
      },
      { headers: { 'x-mcp-event': 'session.complete' }, body: '{"event":"session.complete"}' },
    ],
  });
  const item = (
    kind: 'startRequestVariants' | 'problemTypes' | 'streamEvents' | 'webhookEvents' | 'webhookEnvelopes',
    name: string,
  ) => coverage[kind].find((one) => one.name === name);

  test('counts calls and statuses per operation; only a success exercises it', () => {
    const start = coverage.operations.find((operation) => operation.operationId === 'startSession')!;
    expect(start).toMatchObject({ calls: 1, statuses: { '202': 1 }, exercised: true, checks: ['a.check'] });
    expect(start.unseenStatuses).toContain('400');
    expect(coverage.operations.find((operation) => operation.operationId === 'getSession')).toMatchObject({
      calls: 1,
      exercised: false,
    });
    expect(coverage.gaps).toContainEqual({
      kind: 'operations',
      item: 'getSession (GET /v1/sessions/{id})',
      requirements: ['LIFE-003', 'POLL-001'],
    });
  });

  test('tells the variants, problem types (unknown methods included), stream and webhook events apart', () => {
    expect(item('startRequestVariants', 'B')?.seen).toBe(1);
    expect(item('startRequestVariants', 'A')?.seen).toBe(0);
    expect(item('problemTypes', 'unauthorized')?.seen).toBe(1);
    expect(item('problemTypes', 'method-not-allowed')?.seen).toBe(1);
    expect(item('streamEvents', 'synth.message')?.seen).toBe(1);
    expect(item('streamEvents', 'made.up')).toMatchObject({ seen: 1, documented: false });
    expect(item('webhookEvents', 'session.cancelled')).toMatchObject({ seen: 1, checks: ['webhooks.delivery'] });
    expect(item('webhookEvents', 'legacy.session.complete')?.seen).toBe(1);
    expect(item('webhookEnvelopes', 'seed')?.seen).toBe(1);
  });

  test('lists the unseen items as gaps, but not alternatives of a seen one nor what a conforming run never shows', () => {
    const gaps = coverage.gaps.map((gap) => `${gap.kind} ${gap.item}`);
    expect(gaps).toContain('startRequestVariants A');
    expect(gaps).toContain('problemTypes not-found');
    expect(gaps).not.toContain('webhookEnvelopes published');
    expect(gaps).not.toContain('problemTypes internal-error');
    expect(coverage.summary.problemTypes).toEqual({ documented: 10, seen: 2 });
  });
});
