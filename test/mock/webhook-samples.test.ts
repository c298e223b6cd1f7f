/**
 * The webhook sample bodies of the mock: one real Prism process, `GET /_webhooks/<event>` for every webhook,
 * each example selectable with `Prefer: example=…`, in the seed's envelope (the default) and in both forms
 * of the service's current webhooks page; every body validates against the webhook's contract schema.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { valueAt } from '../../src/contract/pointer.js';
import { createContractValidator } from '../../src/contract/validator.js';
import { startMock, type RunningMock } from '../../src/mock/mock.js';
import { freePort } from '../../src/mock/prism.js';
import { webhookSamplesPrefix } from '../../src/mock/webhook-samples.js';
import { envelopeSchemaPointer, webhookEventNames } from '../../src/webhooks/events.js';

const contract = loadContract();
const validator = createContractValidator(contract);

let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ port: await freePort() });
}, 180_000);

afterAll(async () => {
  await mock?.stop();
});

function exampleNames(event: string): string[] {
  return Object.keys(
    valueAt(contract, `#/webhooks/${event}/post/requestBody/content/application~1json/examples`) as object,
  );
}

async function sample(event: string, example?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = example === undefined ? {} : { Prefer: `example=${example}` };
  const response = await fetch(`${mock.baseUrl}${webhookSamplesPrefix}/${event}`, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('webhook sample bodies', () => {
  test.each([...webhookEventNames])(
    '%s answers each example, in both envelopes, valid against its webhook',
    async (event) => {
      const names = exampleNames(event);
      expect(names).toEqual([names[0], `${names[0]}_published`, `${names[0]}_published_short`]);
      const seed = await sample(event);
      expect(seed.status).toBe(200);
      expect(seed.body['event']).toBe(event);
      const published = await sample(event, `${names[0]}_published`);
      expect(published.body).toMatchObject({ type: event, id: expect.stringMatching(/^evt_/), delivery_attempt: 1 });
      expect(published.body).not.toHaveProperty('event');
      const short = await sample(event, `${names[0]}_published_short`);
      expect(Object.keys(short.body)).toEqual(['id', 'type', 'data']);
      for (const body of [seed.body, published.body, short.body]) {
        expect(validator.validate(envelopeSchemaPointer(event), body).errors).toEqual([]);
      }
    },
  );

  test('an example name the webhook does not have is an error of the Prefer header', async () => {
    const response = await fetch(`${mock.baseUrl}${webhookSamplesPrefix}/session.complete`, {
      headers: { Prefer: 'example=nope' },
    });
    expect(response.status).toBe(404);
    await response.arrayBuffer();
  });
});
