import type { OperationObject } from 'openapi-typescript';
import { describe, expect, test } from 'vitest';
import { constantOf } from '../../src/contract/constant.js';
import { loadContract } from '../../src/contract/load.js';
import { pointerOf, valueAt } from '../../src/contract/pointer.js';
import { createContractValidator } from '../../src/contract/validator.js';
import {
  buildEnvelope,
  envelopeSchemaPointer,
  eventListsOf,
  isWebhookEventName,
  webhookEventListVariants,
  webhookEventLists,
  webhookEventNames,
  type WebhookEventName,
} from '../../src/webhooks/events.js';

const contract = loadContract();
const validator = createContractValidator(contract);
const schemas = contract.components?.schemas as Record<string, { enum?: string[]; const?: unknown }>;
const webhooks = contract.webhooks as Record<string, { post: OperationObject & { 'x-event-lists'?: number[] } }>;
const eventListVariants = valueAt(contract, '#/x-webhook-delivery/event_lists/variants') as Array<{
  variant: number;
  events: string[];
}>;
const legacyWebhook = 'legacy.session.complete';
const currentWebhooks = Object.keys(webhooks).filter((name) => name !== legacyWebhook);

function mediaPointer(webhook: string, member: 'schema' | 'examples'): string {
  return pointerOf('webhooks', webhook, 'post', 'requestBody', 'content', 'application/json', member);
}

interface ExampleBody {
  event: WebhookEventName;
  at?: string;
  user_id?: string;
  correlation_id?: string;
  data: never;
}

function exampleOf(name: string): ExampleBody {
  const examples = valueAt(contract, mediaPointer(name, 'examples')) as Record<string, { value: unknown }>;
  return Object.values(examples)[0]?.value as ExampleBody;
}

describe('event names', () => {
  test('are the WebhookEventName enum, in its order', () => {
    expect([...webhookEventNames]).toEqual(schemas['WebhookEventName']?.enum);
  });

  test('every name has a webhook in the contract, and every webhook but the legacy one has a name', () => {
    expect([...currentWebhooks].sort()).toEqual([...webhookEventNames].sort());
  });

  test('the legacy webhook is deprecated and carries the session.complete body', () => {
    const legacy = webhooks[legacyWebhook]?.post as OperationObject;
    expect(legacy.deprecated).toBe(true);
    expect(valueAt(contract, mediaPointer(legacyWebhook, 'schema'))).toEqual({
      $ref: '#/components/schemas/WebhookEventSessionCompleteDelivery',
    });
    expect(valueAt(contract, mediaPointer('session.complete', 'schema'))).toEqual({
      $ref: '#/components/schemas/WebhookEventSessionCompleteDelivery',
    });
  });

  test('isWebhookEventName accepts exactly the catalogue', () => {
    expect(webhookEventNames.every(isWebhookEventName)).toBe(true);
    expect(['legacy.session.complete', 'session.completed', '', 42].some(isWebhookEventName)).toBe(false);
  });
});

describe('event lists', () => {
  test.each(webhookEventListVariants)('variant %i is the same list in both places of the contract', (variant) => {
    const list = [...webhookEventLists[variant]];
    expect(list).toEqual(constantOf(schemas[`WebhookEventListVariant${variant}`])?.value);
    expect(list).toEqual(eventListVariants.find((entry) => entry.variant === variant)?.events);
    expect(validator.validate('#/components/schemas/WebhookEventList', list).valid).toBe(true);
  });

  test('every list holds known names only, each once', () => {
    for (const variant of webhookEventListVariants) {
      const list: readonly string[] = webhookEventLists[variant];
      expect(list.filter((name) => !isWebhookEventName(name))).toEqual([]);
      expect(new Set(list).size).toBe(list.length);
    }
  });

  test.each([...webhookEventNames])("%s: the lists naming it are its webhook's x-event-lists", (name) => {
    expect(eventListsOf(name)).toEqual(webhooks[name]?.post['x-event-lists']);
    expect(eventListsOf(name).length).toBeGreaterThan(0);
  });
});

describe('buildEnvelope', () => {
  test.each(currentWebhooks)("rebuilds the %s example and the result matches the webhook's schema", (name) => {
    const example = exampleOf(name);
    const built = buildEnvelope(example.event, example.data, {
      userId: example.user_id,
      correlationId: example.correlation_id,
      at: Date.parse(example.at ?? '2026-11-20T09:19:55.031Z'),
    });
    expect(built).toMatchObject({ ...example, at: example.at ?? '2026-11-20T09:19:55.031Z' });
    const result = validator.validate(envelopeSchemaPointer(example.event), built);
    expect(result.errors).toEqual([]);
  });

  test("serialises the session.complete example byte for byte as the contract's test vector", () => {
    const example = exampleOf('session.complete');
    const rawBody = valueAt(contract, '#/x-webhook-delivery/test_vector/raw_body');
    const built = buildEnvelope('session.complete', example.data, {
      userId: example.user_id,
      correlationId: example.correlation_id,
      at: new Date(example.at as string),
    });
    expect(JSON.stringify(built)).toBe(rawBody);
  });

  test('writes `at` in UTC with milliseconds and leaves out absent context', () => {
    const built = buildEnvelope(
      'session.continued',
      { session_id: '3f6c2a9e-8b1d-4c7e-a2f5-9d0b6e4c1a83', round_number: 2 },
      { at: Date.UTC(2026, 10, 20, 9, 19, 55) },
    );
    expect(built).toEqual({
      event: 'session.continued',
      at: '2026-11-20T09:19:55.000Z',
      data: { session_id: '3f6c2a9e-8b1d-4c7e-a2f5-9d0b6e4c1a83', round_number: 2 },
    });
    expect(validator.validate(envelopeSchemaPointer('session.continued'), built).valid).toBe(true);
  });
});
