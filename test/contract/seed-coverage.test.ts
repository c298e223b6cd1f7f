/**
 * A reader holding the seed finds each of its facts in the contract. Each row names a seed section and the
 * place in the bundled document that encodes the fact; the row fails if the fact is missing or changed.
 */
import { describe, expect, test } from 'vitest';
import { constantOf } from '../../src/contract/constant.js';
import { loadContract } from '../../src/contract/load.js';

type Json = Record<string, any>;
const doc = loadContract() as unknown as Json;

/** Follows a JSON Pointer from the root, resolving every `$ref` met on the way. */
function at(pointer: string): any {
  let node: any = doc;
  const deref = () => {
    while (node && typeof node === 'object' && typeof node.$ref === 'string') node = at(node.$ref.slice(1));
  };
  for (const token of pointer.split('/').slice(1)) {
    deref();
    node = node?.[token.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  deref();
  return node;
}

const schema = (name: string) => at(`/components/schemas/${name}`);
const op = (path: string, method: string) => at(`/paths/${path.replaceAll('/', '~1')}/${method}`);
const props = (s: Json): string[] => Object.keys(s.properties ?? {});
const headerNames = (parameters: Json[] = []) =>
  parameters
    .map((p) => (p.$ref ? at(p.$ref.slice(1)) : p))
    .filter((p) => p.in === 'header')
    .map((p) => p.name);

describe('What the service does', () => {
  test('the ten session modes with their display names', () => {
    const names = at('/components/examples/ModeCatalog/value/items').map((m: Json) => m.name);
    expect(names).toEqual([
      'Boardroom',
      'Idea Lab',
      'Lightning Round',
      'The Arena',
      'Shark Tank',
      'Command Center',
      'War Room',
      'Deep Dive',
      'Crystal Ball',
      'Research Lab',
    ]);
  });
  test('a lineup of 2 to 12 Synths from a library of 24', () => {
    expect(schema('StartSessionRequestA').properties.synths).toMatchObject({ minItems: 2, maxItems: 12 });
    expect(at('/components/examples/SynthCatalog/value/items')).toHaveLength(24);
    expect(doc['x-limits'].synths_per_session).toEqual({ min: 2, max: 12, library_size: 24 });
  });
  test('consult turns go through the MCP tool service.consult.message, billed per turn', () => {
    expect(doc['x-mcp-tools'][0].name).toBe('service.consult.message');
    expect(props(schema('ConsultTurnOutput'))).toEqual(
      expect.arrayContaining(['reply', 'document', 'credits_charged']),
    );
  });
  test('availability tiers, targets, regions and status page', () => {
    expect(doc['x-availability'].tiers).toEqual(['ultra', 'enterprise']);
    expect(doc['x-service-level-objectives']).toMatchObject({
      api_availability_percent: 99.9,
      orchestration_availability_percent: 99.5,
      regions: ['US-East', 'EU-West'],
      status_page: '{status_url}',
    });
  });
  test('one credit pool shared by web, MCP and API use, no per-call surcharge', () => {
    expect(schema('CreditPool').properties.per_call_surcharge_credits.const).toBe(0);
  });
});

describe('Resources and their fields', () => {
  test('start request variants A and B', () => {
    expect(props(schema('StartSessionRequestA'))).toEqual(
      expect.arrayContaining(['mode', 'title', 'context', 'synths', 'rounds', 'model_class']),
    );
    expect(props(schema('StartSessionRequestB'))).toEqual(
      expect.arrayContaining(['question', 'session_type', 'mode', 'synth_id']),
    );
    expect(schema('SessionType').enum).toEqual(['boardroom', 'consult']);
  });
  test('start response variants A1, A2 and B', () => {
    expect(schema('StartSessionResponse').oneOf).toHaveLength(3);
    expect(schema('StartSessionResponseA1').required).toEqual(['session_id']);
    expect(schema('StartSessionResponseA2').required).toEqual([
      'id',
      'status',
      'estimated_cost_credits',
      'events_url',
      'outcomes_url',
    ]);
    expect(schema('StartSessionResponseB').required).toEqual(['session_id', 'task_id']);
  });
  test('session read: status, v4_phase, memo with verdict and confidence 0 to 100', () => {
    const session = schema('Session');
    expect(props(session)).toEqual(expect.arrayContaining(['status', 'v4_phase', 'memo', 'decision_brief']));
    expect(schema('Memo').properties.confidence_0_100).toMatchObject({ type: 'integer', minimum: 0, maximum: 100 });
    expect(props(schema('Memo'))).toEqual(['verdict', 'confidence_0_100', 'conditions', 'dissent']);
  });
  test('webhook subscription body and create response', () => {
    expect(schema('CreateWebhookRequest').required).toEqual(['label', 'url', 'events']);
    expect(props(schema('CreateWebhookResponse'))).toEqual([
      'ok',
      'subscription',
      'signing_secret',
      'verify_instructions',
    ]);
  });
  test('paged lists carry items and next_cursor (null at the end)', () => {
    expect(schema('SessionPage').required).toEqual(['items', 'next_cursor']);
    expect(schema('NextCursor').type).toEqual(['string', 'null']);
  });
});

describe('States', () => {
  test('every state name that appears is a status', () => {
    expect(schema('SessionStatus').enum).toEqual(
      expect.arrayContaining(['running', 'complete', 'created', 'failed', 'cancelled', 'continued', 'reconvened']),
    );
  });
});

describe('Endpoints', () => {
  test.each([
    ['/v1/sessions', 'post'],
    ['/v1/sessions/plan', 'post'],
    ['/v1/sessions', 'get'],
    ['/v1/sessions/{id}', 'get'],
    ['/v1/sessions/{id}/events', 'get'],
    ['/v1/sessions/{id}/outcomes', 'get'],
    ['/v1/sessions/{id}/outcomes', 'post'],
    ['/v1/sessions/{id}/fork', 'post'],
    ['/v1/sessions/{id}/export', 'post'],
    ['/v1/synths/chat', 'post'],
    ['/v1/actions/execute', 'post'],
    ['/v1/webhooks', 'post'],
    ['/v1/webhooks/{id}/deliveries', 'get'],
    ['/v1/health', 'get'],
  ])('%s %s (method given)', (path, method) => {
    expect(op(path, method)?.operationId).toEqual(expect.any(String));
  });
  test.each([
    '/v1/sessions/{id}/plan',
    '/v1/sessions/{id}/messages',
    '/v1/sessions/{id}/decisions',
    '/v1/sessions/{id}/exports',
    '/v1/sessions/{id}/shares',
    '/integrations',
    '/synths',
    '/modes',
    '/credits',
    '/webhooks',
  ])('%s (purpose given)', (path) => {
    expect(at(`/paths/${path.replaceAll('/', '~1')}`)).toBeDefined();
  });
  test('writes accept Idempotency-Key; lists take limit and cursor', () => {
    expect(headerNames(op('/v1/sessions', 'post').parameters)).toContain('Idempotency-Key');
    const query = op('/v1/sessions', 'get').parameters.map((p: Json) => at(p.$ref.slice(1)).name);
    expect(query).toEqual(expect.arrayContaining(['limit', 'cursor']));
  });
  test('wait_ms long-polls, 60000 allowed', () => {
    const waitMs = op('/v1/sessions/{id}', 'get')
      .parameters.map((p: Json) => at(p.$ref.slice(1)))
      .find((p: Json) => p.name === 'wait_ms');
    expect(waitMs.schema.maximum).toBeGreaterThanOrEqual(60000);
  });
  test('deleting answers 204; creating 201; async writes 202', () => {
    expect(op('/v1/sessions/{id}', 'delete').responses).toHaveProperty('204');
    expect(op('/v1/webhooks', 'post').responses).toHaveProperty('201');
    expect(op('/v1/sessions', 'post').responses).toHaveProperty('202');
  });
});

describe('Authentication', () => {
  test('bearer on everything, none on the health probe, OAuth 2.0 as an alternative', () => {
    expect(at('/components/securitySchemes/bearerAuth')).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(at('/components/securitySchemes/oauth2').type).toBe('oauth2');
    expect(op('/v1/health', 'get').security).toEqual([]);
    expect(at('/components/securitySchemes/bearerAuth')['x-key-rotation-grace-hours']).toBe(24);
    expect(schema('ApiKeyHint').oneOf).toHaveLength(2);
  });
});

describe('Events', () => {
  const delivery = doc['x-webhook-delivery'];
  test('delivery headers, user agent, 300 s replay window', () => {
    expect(Object.keys(delivery.headers)).toEqual([
      'X-Service-Event',
      'X-Service-Signature',
      'X-Service-Timestamp',
      'X-Service-Delivery-Id',
      'User-Agent',
      'Content-Type',
    ]);
    expect(headerNames(at('/webhooks/session.complete/post').parameters)).toEqual(
      expect.arrayContaining([
        'X-Service-Event',
        'X-Service-Signature',
        'X-Service-Timestamp',
        'X-Service-Delivery-Id',
        'User-Agent',
      ]),
    );
    expect(delivery.user_agent).toBe('Service-Webhooks/1.0');
    expect(delivery.replay_tolerance_seconds).toBe(300);
  });
  test('envelope fields', () => {
    expect(props(schema('WebhookEnvelope'))).toEqual(['event', 'user_id', 'correlation_id', 'at', 'data']);
  });
  test.each([
    ['WebhookEventSessionCompleteData', ['session_id', 'verdict', 'credits_charged', 'session_url']],
    ['WebhookEventSessionFailedData', ['session_id', 'error_code', 'error_message']],
    ['WebhookEventSessionCancelledData', ['session_id', 'credits_charged', 'credits_refunded']],
    ['WebhookEventSessionContinuedData', ['session_id', 'round_number']],
    ['WebhookEventSessionReconvenedData', ['session_id', 'source_session_id', 'round_number']],
    ['WebhookEventOutcomesReadyData', ['session_id', 'format', 'outcome_id']],
  ])('%s has the stated fields', (name, fields) => {
    expect(props(schema(name))).toEqual(expect.arrayContaining(fields));
  });
  test('the four event lists are variants, every name a webhook', () => {
    const lists = schema('WebhookEventList').oneOf.map((branch: Json) => constantOf(at(branch.$ref.slice(1)))?.value);
    expect(lists.map((list: string[]) => list.length)).toEqual([6, 5, 8, 9]);
    expect(Object.keys(doc.webhooks)).toEqual(expect.arrayContaining([...new Set(lists.flat())] as string[]));
  });
  test('retry waits, pause after 10, last 100 attempts', () => {
    expect(delivery.retry_schedule_variants.map((v: Json) => v.waits_minutes)).toEqual([
      [1, 5, 15, 60],
      [1, 5, 15, 60, 240],
    ]);
    expect(delivery.pause_after_consecutive_failures).toBe(10);
    expect(delivery.deliveries_retained).toBe(100);
  });
  test('the deprecated legacy per-key webhook', () => {
    const legacy = at('/webhooks/legacy.session.complete/post');
    expect(legacy.deprecated).toBe(true);
    expect(headerNames(legacy.parameters)).toEqual(
      expect.arrayContaining(['X-Mcp-Signature', 'X-Mcp-Event', 'X-Mcp-Timestamp', 'X-Mcp-Delivery-Id']),
    );
  });
  test('the session stream events and their data', () => {
    const events = jsonBodyOfStream().oneOf.map((branch: Json) => at(branch.$ref.slice(1)).properties.event.const);
    expect(events).toEqual(expect.arrayContaining(['synth.message', 'round.complete', 'session.complete']));
    expect(props(schema('SynthMessageEventData'))).toEqual(['synth', 'round', 'content']);
    expect(props(schema('RoundCompleteEventData'))).toEqual(['round', 'synthesis_preview']);
    expect(props(schema('SessionCompleteStreamEventData'))).toContain('outcomes_url');
  });
});

function jsonBodyOfStream(): Json {
  return at('/paths/~1v1~1sessions~1{id}~1events/get/responses/200/content/text~1event-stream/schema');
}

describe('Errors', () => {
  test('the catalog: slugs and statuses', () => {
    const catalog = Object.fromEntries(doc['x-problem-types'].types.map((t: Json) => [t.slug, t.status]));
    expect(catalog).toMatchObject({
      'invalid-request': 400,
      unauthorized: 401,
      'insufficient-credits': 402,
      'tier-required': 403,
      'not-found': 404,
      conflict: 409,
      'rate-limited': 429,
      'internal-error': 500,
    });
  });
  test('problem fields and the insufficient-credits extension', () => {
    expect(schema('Problem').required).toEqual(['type', 'title', 'status', 'detail']);
    const extension = schema('InsufficientCreditsProblem').allOf[1];
    expect(extension.required).toEqual(['session_estimate_credits', 'balance_credits', 'topup_url']);
  });
  test('429 carries Retry-After; one variant adds retry_after_s', () => {
    const rateLimited = at('/components/responses/RateLimited');
    expect(rateLimited.headers).toHaveProperty('Retry-After');
    expect(schema('RateLimitedProblemWithRetryAfter').allOf[1].required).toEqual(['retry_after_s']);
  });
});

describe('Limits and versioning', () => {
  test('Ultra limits per bucket and tier multipliers', () => {
    const buckets = doc['x-rate-limit-buckets'];
    expect(buckets.buckets.map((b: Json) => b.ultra_per_minute)).toEqual([60, 600, 3000]);
    expect(buckets.tier_multipliers).toMatchObject({ free: 0.15, max: 3.3, ultra: 16 });
  });
  test('windows and thresholds', () => {
    expect(doc['x-limits']).toMatchObject({
      idempotency_window_hours: 24,
      old_key_validity_after_rotation_hours: 24,
      webhook_replay_tolerance_seconds: 300,
      webhook_pause_after_consecutive_failures: 10,
      webhook_deliveries_retained_per_subscription: 100,
    });
  });
  test('date version header on responses, pinning on requests, /v2 policy', () => {
    expect(at('/components/headers/X-Service-API-Version/schema').pattern).toBe('^\\d{4}-\\d{2}-\\d{2}$');
    expect(headerNames(at('/paths/~1v1~1sessions').parameters)).toContain('X-Service-API-Version');
    expect(doc['x-deprecation-policy'].breaking_changes).toContain('/v2/');
    expect(doc['x-deprecation-policy'].notice.map((n: Json) => n.text).join(' ')).toMatch(/6 months.*90-day/);
  });
});
