/**
 * What the service's own documentation pages publish beyond the seed (its current webhooks page, API
 * reference, MCP help, how sessions work, pricing and troubleshooting pages) validates against the bundled
 * contract, and the seed's own shapes still do. The samples are written here from the facts those pages
 * publish (ellipses filled in with letters and digits); where a page cuts a sample off, the fixture adds
 * a member the contract does not know, which an open response schema must accept.
 */
import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { valueAt } from '../../src/contract/pointer.js';
import { createContractValidator } from '../../src/contract/validator.js';
import {
  envelopeSchemaPointer,
  webhookEventLists,
  webhookEventNames,
  type WebhookEventName,
} from '../../src/webhooks/events.js';

const contract = loadContract();
const validator = createContractValidator(contract);

type Body = Record<string, unknown>;

const valid = (pointer: string, value: unknown): boolean => validator.validate(pointer, value).valid;
const schema = (name: string): string => `#/components/schemas/${name}`;

/** The first example of a webhook in the contract: the seed's envelope. */
function seedExample(event: WebhookEventName): Body {
  const examples = valueAt(
    contract,
    `#/webhooks/${event}/post/requestBody/content/application~1json/examples`,
  ) as Record<string, { value: Body }>;
  return Object.values(examples)[0]!.value;
}

// The webhooks page: `session.complete` data as its sample shows it.
const publishedSessionComplete = {
  session_id: 'ses_2c4d8e6f1a3b',
  title: 'Should we expand into the German market?',
  mode: 'stress_test',
  synth_count: 5,
  rounds_completed: 3,
  credits_used: 432,
  consensus_score: 0.78,
  outcomes_url: 'https://www.example-service.example/api/v1/sessions/ses_2c4d8e6f1a3b/outcomes',
};

// The webhooks page: `action.executed` data, cut off after a member whose name begins `opera…`.
const publishedActionExecuted = {
  session_id: 'ses_2c4d8e6f1a3b',
  action_id: 'act_9Xq2Lm7R',
  integration: 'linear',
  operation: 'create_issue',
};

function fullEnvelope(type: string, data: Body, attempt = 1): Body {
  return {
    id: 'evt_2c4d8e6f1a3b5c7d',
    type,
    created_at: '2026-05-01T12:34:56.789Z',
    data,
    delivery_attempt: attempt,
    api_version: '2026-05-01',
  };
}

const shortEnvelope = (type: string, data: Body): Body => ({ id: 'evt_2c4d8e6f1a3b5c7d', type, data });

const nineEvents = webhookEventLists[4];

describe("the webhooks page's envelope", () => {
  test("the full sample of session.complete validates, with the page's data", () => {
    expect(
      valid(envelopeSchemaPointer('session.complete'), fullEnvelope('session.complete', publishedSessionComplete)),
    ).toBe(true);
    expect(
      valid(envelopeSchemaPointer('session.complete'), shortEnvelope('session.complete', publishedSessionComplete)),
    ).toBe(true);
  });

  test("action.executed with the page's members, and the one it cuts off, validates", () => {
    expect(
      valid(envelopeSchemaPointer('action.executed'), fullEnvelope('action.executed', publishedActionExecuted)),
    ).toBe(true);
    expect(
      valid(envelopeSchemaPointer('action.executed'), shortEnvelope('action.executed', publishedActionExecuted)),
    ).toBe(true);
  });

  test.each(nineEvents)('%s in the full and the per-event form validates, a retry too', (event) => {
    const { data } = seedExample(event) as { data: Body };
    expect(valid(envelopeSchemaPointer(event), fullEnvelope(event, data))).toBe(true);
    expect(valid(envelopeSchemaPointer(event), fullEnvelope(event, data, 3))).toBe(true);
    expect(valid(envelopeSchemaPointer(event), shortEnvelope(event, data))).toBe(true);
  });

  test('a body keeps to its own webhook and to one envelope', () => {
    const { data } = seedExample('session.cancelled') as { data: Body };
    // The type names another event.
    expect(valid(envelopeSchemaPointer('session.cancelled'), fullEnvelope('session.complete', data))).toBe(false);
    // With `event` the body is the seed's form, whatever else it carries (its other members are unknown
    // ones, which an open body accepts); the published forms never carry `event`, so it is not ambiguous.
    const both = { ...fullEnvelope('session.cancelled', data), event: 'session.cancelled' };
    expect(valid(envelopeSchemaPointer('session.cancelled'), both)).toBe(true);
    expect(valid(schema('WebhookEventSessionCancelledPublished'), both)).toBe(false);
    // The page's ids begin `evt_`; a first attempt is 1.
    expect(
      valid(envelopeSchemaPointer('session.cancelled'), { ...fullEnvelope('session.cancelled', data), id: '2c4d8e' }),
    ).toBe(false);
    expect(valid(envelopeSchemaPointer('session.cancelled'), fullEnvelope('session.cancelled', data, 0))).toBe(false);
  });
});

describe("the pages' other facts", () => {
  test('the subscription-create response as published, with a secret without whsec_, validates', () => {
    const response = {
      ok: true,
      subscription: { id: 'hook_4Fq8Lm2R', label: 'CRM sync' },
      signing_secret: 'kT8aB9cXq2Lm7Rz4Vn1Pd6Wy',
      verify_instructions: 'Verify X-Service-Signature with your signing secret.',
    };
    expect(valid(schema('CreateWebhookResponse'), response)).toBe(true);
  });

  test.each(['sk_synth_live_...9f3a', 'sk_synth_test_...0c1d', 'sy_live_...b27c', 'mcp_live_...4e5f'])(
    'the key hint %s validates',
    (hint) => {
      expect(valid(schema('ApiKeyHint'), hint)).toBe(true);
    },
  );

  test("the nine-event list of the webhooks page is the seed's variant 4, with share.viewed sampled", () => {
    expect(valid(schema('WebhookEventList'), [...nineEvents])).toBe(true);
    const delivery = contract['x-webhook-delivery'] as {
      published_event_lists: { webhooks_page: Body; marketing_page: Body };
    };
    expect(delivery.published_event_lists.webhooks_page).toMatchObject({ variant: 4, sampled: ['share.viewed'] });
    expect(delivery.published_event_lists.marketing_page['events']).toEqual([
      'session.complete',
      'outcomes.ready',
      'action.executed',
    ]);
  });

  test('tiers, model classes, rounds, the sweep, the undo window and both insufficient-credits behaviours are recorded', () => {
    const document = contract as unknown as Record<string, Record<string, unknown>>;
    expect(document['x-tiers']?.['synths_per_session']).toMatchObject({ free: 3, pro: 5, max: 8, ultra: 12 });
    expect(document['x-tiers']?.['synths_visible_in_library']).toMatchObject({ free: 8, pro: 17, max: 24, ultra: 24 });
    expect(document['x-tiers']?.['monthly_credits']).toMatchObject({ free: 150, pro: 2500, max: 7000, ultra: 15000 });
    expect(document['x-model-classes']?.['order']).toEqual(['standard', 'premium', 'frontier']);
    expect(document['x-limits']?.['rounds_per_session']).toMatchObject({ min: 2, max: 4 });
    expect(document['x-limits']?.['session_swept_after_minutes']).toMatchObject({ value: 5 });
    expect(document['x-limits']?.['undo_window_seconds']).toMatchObject({ value: 30 });
    const behaviours = document['x-credits']?.['insufficient_credits_mid_session'] as Body[];
    expect(behaviours.map((entry) => entry['variant'])).toEqual(['complete-what-it-can', 'pause-until-top-up']);
    expect(valid(schema('CreditEstimate') + '/properties/model_class', 'frontier')).toBe(true);
  });

  test('the MCP catalogue facts are recorded', () => {
    const catalogue = (contract as unknown as Record<string, Record<string, Body>>)['x-mcp-catalogue']!;
    expect(catalogue['counts']).toMatchObject({ tools: 27, resources: 13, prompts: 10 });
    expect((catalogue['tool_groups']?.['groups'] as Body[]).map((group) => group['tools'])).toEqual([13, 5, 2]);
    expect(catalogue['start_tool']).toMatchObject({ name: 'service.session.start', returns_within_seconds: 2 });
    expect(Object.keys(catalogue['start_tool']?.['arguments'] as Body)).toEqual([
      'question',
      'mode',
      'synth_count',
      'rounds',
    ]);
  });

  test('every part from the pages is a variant that names its page', () => {
    const marked: Body[] = [];
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) {
        value.forEach(visit);
      } else if (value !== null && typeof value === 'object') {
        if ('x-published-on' in value) {
          marked.push(value);
        }
        Object.values(value).forEach(visit);
      }
    };
    visit(contract);
    expect(marked.length).toBeGreaterThan(30);
    expect(marked.every((part) => part['x-provenance'] === 'variant')).toBe(true);
  });
});

describe("the seed's own shapes", () => {
  test.each(webhookEventNames)('the seed envelope of %s still validates', (event) => {
    expect(valid(envelopeSchemaPointer(event), seedExample(event))).toBe(true);
  });

  test('the seed key hints, the whsec_ secret and the seed event lists still validate', () => {
    for (const hint of ['sk_live_...9f3a', 'sk_test_...0c1d', 'mcp_test_...b27c', 'mcp_live_...4e5f']) {
      expect(valid(schema('ApiKeyHint'), hint)).toBe(true);
    }
    expect(
      valid(schema('CreateWebhookResponse') + '/properties/signing_secret', 'whsec_4fQm9Zt2LxV7cR1nK8pH3wY6bD5sJ0aE'),
    ).toBe(true);
    for (const variant of [1, 2, 3, 4] as const) {
      expect(valid(schema('WebhookEventList'), [...webhookEventLists[variant]])).toBe(true);
    }
  });

  test('a key hint must still name the environment and show the last four characters only', () => {
    for (const hint of ['sk_...9f3a', 'sk_prod_...9f3a', 'sk_live_4fQm9Zt2LxV7cR1n', 'live_...9f3a']) {
      expect(valid(schema('ApiKeyHint'), hint)).toBe(false);
    }
  });
});
