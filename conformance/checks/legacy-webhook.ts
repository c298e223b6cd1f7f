/**
 * The deprecated per-key webhook (seed "Events › Legacy per-key webhook (deprecated)"): a key with its
 * legacy URL on the suite's receiver (one the test control provisions, or one the implementer set up and
 * names with `--legacy-webhook-key`) starts one session that is cancelled and one that completes; the URL
 * must hear the completion alone, signed over the raw body.
 * @module
 */
import { signLegacyDelivery } from '../../src/webhooks/signing.js';
import { legacyDeliveryHeaders } from '../../src/webhooks/headers.js';
import { bodyOf, deliveryEvidence, header } from '../harness/deliveries.js';
import { provisionKey } from '../harness/key-control.js';
import type { Delivery } from '../harness/receiver.js';
import { marker, startBodyA, startSession } from '../harness/sessions.js';
import { causeCancellation, subscribe } from '../harness/subscriptions.js';
import { checksOf } from './define.js';

const check = checksOf('legacy-webhook');

const requirements = ['LEG-001', 'LEG-002', 'LEG-003'];
/**
 * The receiver's path for a legacy URL the implementer set beforehand (`--legacy-webhook-key`): the URL is
 * `http://{--receiver-host}:{--receiver-port}/legacy`.
 */
export const legacyPath = '/legacy';
/** Real time the legacy delivery may trail the subscription's delivery of the same completion. */
const graceMs = 10_000;
/** Real time a stray delivery may trail the completion. */
const strayGraceMs = 2_000;

const eventOf = (delivery: Delivery): unknown => {
  const body = bodyOf(delivery) ?? {};
  return body['event'] ?? body['type'];
};

export const legacyDelivery = check('delivery', requirements, {
  title: 'The legacy per-key webhook hears session.complete alone, signed over the body',
  preconditions: ['live', 'receiver-reachable'],
  async run(ctx) {
    const receiver = await ctx.receiver();
    const given = ctx.profile.legacyWebhook;
    const endpoint = given === undefined ? receiver.endpoint(200) : receiver.endpointAt(legacyPath, 200);
    const key =
      given === undefined
        ? await provisionKey(ctx, { legacy_webhook_url: endpoint.url })
        : { http: ctx.http.as({ kind: 'bearer', key: given.key }), legacySecret: given.secret };
    if (typeof key === 'string' || key.legacySecret === undefined) {
      const reason =
        typeof key === 'string'
          ? `${key}, and no --legacy-webhook-key names a key whose legacy URL is the suite's receiver`
          : 'the test control configured no legacy webhook secret';
      requirements.forEach((id) => ctx.skip(id, reason));
      return;
    }
    const as = { ...ctx, http: key.http };
    // A subscription of the same workspace hears the same completion: once it has, the legacy URL is
    // given a short grace rather than the whole session timeout.
    const subscribed = await subscribe(as, ['session.complete']);
    const cancelled = await causeCancellation(as);
    const completed = await startSession(key.http, ctx.contract, startBodyA(ctx.target.synths, marker('legacy'), 1));
    const isCompletion = (one: Delivery): boolean =>
      header(one, legacyDeliveryHeaders.event) === 'session.complete' &&
      (bodyOf(one)?.['data'] as { session_id?: unknown } | undefined)?.session_id === completed.id;
    if ('subscription' in subscribed) {
      const heard = (one: Delivery): boolean =>
        (bodyOf(one)?.['data'] as { session_id?: unknown } | undefined)?.session_id === completed.id;
      await subscribed.subscription.endpoint.waitFor(
        (deliveries) => deliveries.some(heard),
        ctx.timeouts.sessionMs,
        ctx.signal,
      );
      await key.http.delete(`/v1/webhooks/${subscribed.subscription.id}`);
    }
    await endpoint.waitFor(
      (deliveries) => deliveries.some(isCompletion),
      'subscription' in subscribed ? ctx.pace.wait(graceMs) : ctx.timeouts.sessionMs,
      ctx.signal,
    );
    await endpoint.waitFor(
      (deliveries) => deliveries.some((one) => !isCompletion(one)),
      ctx.pace.wait(strayGraceMs),
      ctx.signal,
    );
    const deliveries = endpoint.deliveries();
    const evidence = deliveries.map((one) => deliveryEvidence(ctx.http.config.log, ctx.name, endpoint.url, one));
    const completion = deliveries.find(isCompletion);
    if (completion === undefined) {
      ctx.fail('LEG-001', {
        kind: 'delivery',
        message: `the legacy URL heard no session.complete for ${completed.id}`,
        expected: 'session.complete',
        got: deliveries.map((one) => header(one, legacyDeliveryHeaders.event) ?? null),
        evidence,
      });
      ctx.skip('LEG-002', 'no legacy delivery arrived to verify');
    } else {
      const missing = Object.values(legacyDeliveryHeaders).filter((name) => header(completion, name) === undefined);
      ctx.expect(
        'LEG-001',
        missing.length === 0 && eventOf(completion) === 'session.complete',
        {
          kind: 'delivery',
          message: `the legacy delivery lacks ${missing.join(', ')} or names another event in its body`,
          expected: Object.values(legacyDeliveryHeaders),
          got: completion.headers,
          evidence,
        },
        'session.complete arrived with the four X-Mcp-* headers',
      );
      const signature = header(completion, legacyDeliveryHeaders.signature);
      const expected = signLegacyDelivery({ secret: key.legacySecret, rawBody: completion.rawBody });
      ctx.expect(
        'LEG-002',
        signature === expected,
        {
          kind: 'signature',
          message: "X-Mcp-Signature is not the HMAC of the raw body alone under the key's secret",
          expected: 'sha256=HMAC-SHA256(secret, raw_body)',
          got: signature ?? null,
          evidence,
        },
        'X-Mcp-Signature verifies over the raw body',
      );
    }
    const strays = deliveries.filter(
      (one) => header(one, legacyDeliveryHeaders.event) !== 'session.complete' || eventOf(one) !== 'session.complete',
    );
    const aboutCancelled = deliveries.filter((one) => JSON.stringify(bodyOf(one) ?? {}).includes(cancelled));
    ctx.expect(
      'LEG-003',
      strays.length === 0 && aboutCancelled.length === 0,
      {
        kind: 'delivery',
        message: 'the legacy URL heard more than session.complete',
        expected: 'session.complete only',
        got: strays.concat(aboutCancelled).map((one) => header(one, legacyDeliveryHeaders.event) ?? null),
        evidence,
      },
      `only session.complete arrived (${deliveries.length} deliveries), nothing for the cancelled session`,
    );
  },
});

export const legacyWebhookChecks = [legacyDelivery];
