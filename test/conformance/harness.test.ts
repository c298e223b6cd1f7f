/**
 * Pieces of the harness on their own: selection, exchange validation against
 * the contract, evidence redaction and truncation.
 */
import { describe, expect, test } from 'vitest';
import { checks } from '../../conformance/checks/index.js';
import { loadSuiteContract } from '../../conformance/harness/contract.js';
import { type Exchange, evidenceBodyLimit, redactAuthorization } from '../../conformance/harness/exchange.js';
import { evidenceRecord } from '../../conformance/harness/results.js';
import { checksFor, selectRequirements } from '../../conformance/harness/selection.js';
import { SuiteError } from '../../conformance/harness/target.js';
import { validateExchange } from '../../conformance/harness/validate-exchange.js';
import { requirements } from '../../conformance/requirements/index.js';

describe('selection', () => {
  test('takes IDs, prefixes and category names, case-insensitively', () => {
    const ids = selectRequirements(requirements, ['idem-003, SSE', 'webhooks']).map((requirement) => requirement.id);
    expect(ids).toContain('IDEM-003');
    expect(ids.filter((id) => id.startsWith('SSE-')).length).toBe(
      requirements.filter((requirement) => requirement.category === 'sse').length,
    );
    expect(ids.filter((id) => id.startsWith('HOOK-')).length).toBe(
      requirements.filter((requirement) => requirement.category === 'webhooks').length,
    );
    expect(ids.filter((id) => id.startsWith('IDEM-'))).toEqual(['IDEM-003']);
  });

  test('refuses a token that names nothing', () => {
    expect(() => selectRequirements(requirements, ['IDEM-999'])).toThrow(SuiteError);
  });

  test('a swept requirement brings its whole category, a plain one only its checks', () => {
    const swept = checksFor(selectRequirements(requirements, ['PROB-001']), checks).map((check) => check.name);
    expect(swept).toEqual(checks.filter((check) => check.category === 'problems').map((check) => check.name));
    expect(checksFor(selectRequirements(requirements, ['IDEM-003']), checks).map((check) => check.name)).toEqual([
      'idempotency.conflict',
    ]);
  });
});

function exchange(
  method: string,
  path: string,
  status: number,
  headers: Record<string, string>,
  body: string,
): Exchange {
  return {
    id: 1,
    check: 'test',
    request: { method, url: `http://127.0.0.1:1${path}`, headers: {} },
    response: { status, headers, body },
    startedAt: 0,
    durationMs: 1,
  };
}

describe('validateExchange', () => {
  const contract = loadSuiteContract();
  const health = contract.operation('GET', '/v1/health')!;
  const ok = { 'content-type': 'application/json', 'x-service-api-version': '2026-10-01' };

  test('passes a documented response', () => {
    expect(validateExchange(contract, health, exchange('GET', '/v1/health', 200, ok, '{"status":"ok"}'))).toEqual([]);
  });

  test('names the requirement each deviation breaks', () => {
    const cases: Array<[Exchange, string]> = [
      [exchange('GET', '/v1/health', 201, ok, '{"status":"ok"}'), 'CONT-001'],
      [exchange('GET', '/v1/health', 200, { ...ok, 'content-type': 'text/html' }, '<p>ok</p>'), 'CONT-002'],
      [exchange('GET', '/v1/health', 200, { ...ok, ratelimit: 'lots' }, '{"status":"ok"}'), 'CONT-003'],
      [exchange('GET', '/v1/health', 200, ok, '{"status":"fine"}'), 'CONT-004'],
    ];
    for (const [one, requirement] of cases) {
      expect(validateExchange(contract, health, one).map((violation) => violation.requirement)).toEqual([requirement]);
    }
  });

  test('validates each event of a stream and its data against the contentSchema', () => {
    const events = contract.operation('GET', '/v1/sessions/ses_x/events')!;
    const stream = (data: string): Exchange =>
      exchange(
        'GET',
        '/v1/sessions/ses_x/events',
        200,
        { ...ok, 'content-type': 'text/event-stream' },
        `id: 1\nretry: 3000\nevent: round.complete\ndata: ${data}\n\n`,
      );
    expect(validateExchange(contract, events, stream('{"round":1,"synthesis_preview":"Leaning towards Q2."}'))).toEqual(
      [],
    );
    expect(validateExchange(contract, events, stream('{"round":"one"}')).map((violation) => violation.message)).toEqual(
      ['event round.complete data does not match its schema'],
    );
  });
});

describe('evidence', () => {
  test('redacts keys but keeps the last four characters', () => {
    expect(redactAuthorization('Bearer sk_test_0123456789abcdef')).toBe('Bearer sk_test_…cdef');
  });

  test('cuts long bodies and says so', () => {
    const record = evidenceRecord(exchange('GET', '/v1/sessions', 200, {}, 'x'.repeat(evidenceBodyLimit + 10)));
    expect(record.response?.truncated).toBe(true);
    expect(record.response?.body.length).toBe(evidenceBodyLimit + 1);
  });
});
