/**
 * The two envelope forms built by src/webhooks/events (the seed's and the one of the service's current
 * webhooks page): both validate against every webhook's contract body, the event is read from either,
 * and a stored published-form body is renumbered per attempt while a seed-form body keeps its bytes.
 */
import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { valueAt } from '../../src/contract/pointer.js';
import { createContractValidator } from '../../src/contract/validator.js';
import {
  bodyForAttempt,
  buildEnvelope,
  buildPublishedEnvelope,
  envelopeSchemaPointer,
  eventOf,
  webhookEventNames,
  type WebhookEventData,
  type WebhookEventName,
} from '../../src/webhooks/events.js';
import { createEventId } from '../../src/webhooks/ids.js';

const contract = loadContract();
const validator = createContractValidator(contract);

function seedData<E extends WebhookEventName>(event: E): WebhookEventData<E> {
  const examples = valueAt(
    contract,
    `#/webhooks/${event}/post/requestBody/content/application~1json/examples`,
  ) as Record<string, { value: { data: WebhookEventData<E> } }>;
  return Object.values(examples)[0]!.value.data;
}

const at = Date.UTC(2026, 10, 20, 9, 19, 55, 31);

describe('envelope forms', () => {
  test.each([...webhookEventNames])('%s in both forms validates against its webhook', (event) => {
    const data = seedData(event);
    const seed = buildEnvelope(event, data, {
      userId: '8d2e4f61-3b7a-4c9e-b5d0-1a6f2c8e9b47',
      correlationId: 'corr_7Hq2LxN9pV4mK8sT',
      at,
    });
    const published = buildPublishedEnvelope(event, data, {
      id: createEventId(),
      at,
      attempt: 1,
      apiVersion: '2026-10-01',
    });
    expect(validator.validate(envelopeSchemaPointer(event), seed).errors).toEqual([]);
    expect(validator.validate(envelopeSchemaPointer(event), published).errors).toEqual([]);
    expect(eventOf(seed)).toBe(event);
    expect(eventOf(published)).toBe(event);
  });

  test('a published-form body carries the number of each attempt; nothing else changes', () => {
    const body = JSON.stringify(
      buildPublishedEnvelope('session.cancelled', seedData('session.cancelled'), {
        id: 'evt_abcdefgh12345678',
        at,
        attempt: 1,
        apiVersion: '2026-10-01',
      }),
    );
    const third = bodyForAttempt(body, 3);
    expect(JSON.parse(third)).toEqual({ ...JSON.parse(body), delivery_attempt: 3 });
    expect(Object.keys(JSON.parse(third))).toEqual(Object.keys(JSON.parse(body)));
    expect(bodyForAttempt(body, 1)).toBe(body);
  });

  test('a seed-form body keeps its bytes on every attempt, even with data members named like the published ones', () => {
    const seed = buildEnvelope(
      'session.cancelled',
      { ...seedData('session.cancelled'), delivery_attempt: 1 } as WebhookEventData<'session.cancelled'>,
      { at },
    );
    const body = JSON.stringify(seed);
    expect(bodyForAttempt(body, 4)).toBe(body);
  });
});
