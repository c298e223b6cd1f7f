/**
 * Webhooks, received by the suite's own receiver: subscribing, what each delivery carries (signature,
 * timestamp, headers, id, body), the deliveries listing and the URL guard.
 * @module
 */
import { webhookDelivery } from '../../src/contract/extensions.js';
import { loadContract } from '../../src/contract/load.js';
import { jsonOf } from '../harness/exchange.js';
import {
  bodyOf,
  deliveryContent,
  deliveryEvidence,
  deliveryHeaders,
  deliverySchemaProblems,
  envelopeFormOf,
  eventOfBody,
  header,
  signatureValid,
  webhookContentType,
  webhookUserAgent,
} from '../harness/deliveries.js';
import { type Exchange, mediaTypeOf } from '../harness/exchange.js';
import { pageOf, walkList } from '../harness/pages.js';
import { discard, startMarkedSession } from '../harness/sessions.js';
import { causeCancellation, refusalReason, subscribe, subscribeUrl } from '../harness/subscriptions.js';
import { statusOf } from './problem-shape.js';
import { checksOf } from './define.js';

const check = checksOf('webhooks');

const toleranceMs = webhookDelivery(loadContract()).replayToleranceSeconds * 1000;

export const subscribeCheck = check('subscribe', ['HOOK-001'], {
  title: 'Subscribing returns the secret once',
  preconditions: ['live'],
  async run(ctx) {
    const subscribed = await subscribe(ctx, ['session.complete']);
    if ('refused' in subscribed) {
      ctx.fail('HOOK-001', {
        kind: 'status',
        message: `POST /v1/webhooks answered ${statusOf(subscribed.refused)}`,
        expected: 201,
        got: jsonOf(subscribed.refused) ?? statusOf(subscribed.refused),
        evidence: subscribed.refused,
      });
      return;
    }
    const { subscription } = subscribed;
    const body = jsonOf(subscription.exchange) as { ok?: unknown; verify_instructions?: unknown };
    ctx.expect(
      'HOOK-001',
      body.ok === true && typeof body.verify_instructions === 'string',
      {
        kind: 'schema',
        message: 'the creation answer lacks ok: true or verify_instructions',
        expected: { ok: true, verify_instructions: 'a string' },
        got: body,
        evidence: subscription.exchange,
      },
      'created with ok, the secret and verify instructions',
    );
    const read = await ctx.http.get(`/v1/webhooks/${subscription.id}`);
    const listed = await walkList(ctx.http, '/v1/webhooks', 100, 20);
    const shown = [read, ...listed.pages.map((page) => page.exchange)].filter(
      (exchange) =>
        exchange.response?.body.includes(subscription.secret) ||
        /"signing_secret"\s*:/.test(exchange.response?.body ?? ''),
    );
    ctx.expect(
      'HOOK-001',
      shown.length === 0,
      {
        kind: 'leak',
        message: 'the signing secret is shown again after creation',
        expected: 'never again',
        got: `${shown.length} answers`,
        evidence: shown,
      },
      'the secret is not shown by GET or the list',
    );
    await ctx.http.delete(`/v1/webhooks/${subscription.id}`);
  },
});

export const delivery = check('delivery', ['HOOK-002', 'HOOK-003', 'HOOK-004', 'HOOK-005', 'HOOK-006', 'HOOK-012'], {
  title: 'Deliveries are signed, timely, unique, well-formed and filtered',
  preconditions: ['live', 'receiver-reachable'],
  async run(ctx) {
    const subscribedEvents = ['session.complete', 'session.cancelled'];
    const subscribed = await subscribe(ctx, subscribedEvents);
    if ('refused' in subscribed) {
      ['HOOK-002', 'HOOK-003', 'HOOK-004', 'HOOK-005', 'HOOK-006', 'HOOK-012'].forEach((requirement) =>
        ctx.skip(requirement, refusalReason(subscribed.refused)),
      );
      return;
    }
    const { subscription } = subscribed;
    const completed = await startMarkedSession(ctx, 'webhook complete', 1);
    await causeCancellation(ctx);
    const arrived = await subscription.endpoint.waitFor(
      (deliveries) =>
        ['session.complete', 'session.cancelled'].every((event) =>
          deliveries.some((one) => header(one, deliveryHeaders.event) === event),
        ),
      ctx.timeouts.sessionMs,
      ctx.signal,
    );
    const deliveries = subscription.endpoint.deliveries();
    const evidence = deliveries.map((one) =>
      deliveryEvidence(ctx.http.config.log, ctx.name, subscription.endpoint.url, one),
    );
    if (!arrived) {
      ctx.fail('HOOK-002', {
        kind: 'delivery',
        message: 'session.complete and session.cancelled were not both delivered',
        expected: subscribedEvents,
        got: deliveries.map((one) => header(one, deliveryHeaders.event)),
        evidence,
      });
    }
    const lists = webhookDelivery(ctx.contract.document).eventLists;
    const allowed = new Set(ctx.profile.eventLists.flatMap((variant) => lists.get(variant) ?? []));
    // Webhooks are delivered at least once: the same delivery sent twice keeps its id (HOOK-013 covers
    // retries); two different deliveries must never share one.
    const bodiesById = new Map<string, Set<string>>();
    deliveries.forEach((one, index) => {
      const evidenceOne = evidence[index]!;
      const body = bodyOf(one);
      const event = header(one, deliveryHeaders.event);
      // The body names its event in `event` (the seed's envelope) or `type` (the service's webhooks page).
      const bodyEvent = eventOfBody(body);
      const shapeOk =
        one.method === 'POST' &&
        mediaTypeOf(one.headers['content-type']) === webhookContentType &&
        one.headers['user-agent'] === webhookUserAgent &&
        body !== undefined &&
        event === bodyEvent;
      ctx.expect(
        'HOOK-002',
        shapeOk,
        {
          kind: 'delivery',
          message: 'the delivery is not a JSON POST with the fixed User-Agent and a matching X-Service-Event',
          expected: {
            method: 'POST',
            contentType: webhookContentType,
            userAgent: webhookUserAgent,
            event: bodyEvent ?? null,
          },
          got: {
            method: one.method,
            contentType: one.headers['content-type'] ?? null,
            userAgent: one.headers['user-agent'] ?? null,
            event: event ?? null,
          },
          evidence: evidenceOne,
        },
        `${event} delivered as a JSON POST`,
      );
      ctx.expect(
        'HOOK-003',
        signatureValid(one, subscription.secret),
        {
          kind: 'signature',
          message: `${event}: X-Service-Signature does not verify`,
          expected: 'sha256=HMAC-SHA256(secret, "<timestamp>.<raw_body>")',
          got: header(one, deliveryHeaders.signature) ?? null,
          evidence: evidenceOne,
        },
        `${event}: the signature verifies`,
      );
      // A receiver checks the timestamp against its own clock (seed "Verification rules" 2), so the
      // target signs on the wall clock whatever its time scale: the receiver's clock is the judge.
      const timestamp = Number(header(one, deliveryHeaders.timestamp));
      // Judged against the wall clock at arrival, never the target's simulated time: the receiver compares
      // the timestamp with its own clock (seed verification rule 2), whatever the target's time scale.
      const skew = Math.abs(timestamp * 1000 - one.receivedAt);
      ctx.expect(
        'HOOK-004',
        Number.isInteger(timestamp) && skew <= toleranceMs,
        {
          kind: 'timestamp',
          message: `${event}: X-Service-Timestamp is ${Math.round(skew / 1000)} s from the wall clock at arrival`,
          expected: 'within 300 s',
          got: header(one, deliveryHeaders.timestamp) ?? null,
          evidence: evidenceOne,
        },
        `${event}: timestamp ${Math.round(skew / 1000)} s from the wall clock`,
      );
      const id = header(one, deliveryHeaders.deliveryId) ?? '';
      bodiesById.set(id, (bodiesById.get(id) ?? new Set()).add(deliveryContent(one)));
      const problems = deliverySchemaProblems(ctx.contract, one);
      const form = envelopeFormOf(body);
      if (form !== undefined && !ctx.profile.envelopes.includes(form)) {
        problems.push(
          `the body is in the ${form} envelope; the profile requires ${ctx.profile.envelopes.join(' or ')}`,
        );
      }
      const listed =
        event !== undefined && allowed.has(event) && (ctx.target.announced.eventList?.includes(event) ?? true);
      ctx.expect(
        'HOOK-006',
        problems.length === 0 && listed,
        {
          kind: 'schema',
          message: `${event}: the delivery does not match its webhook, or its event is not in the deployment's list`,
          expected: {
            schema: 'webhooks.' + String(event),
            eventList: ctx.target.announced.eventList ?? [...allowed],
            envelopes: ctx.profile.envelopes,
          },
          got: problems,
          evidence: evidenceOne,
        },
        `${event}: headers and body match the contract`,
      );
      ctx.expect(
        'HOOK-012',
        event !== undefined && subscribedEvents.includes(event),
        {
          kind: 'delivery',
          message: `${event} was delivered without being subscribed to`,
          expected: subscribedEvents,
          got: event ?? null,
          evidence: evidenceOne,
        },
        `${event} was subscribed to`,
      );
    });
    const shared = [...bodiesById.entries()].filter(([id, bodies]) => id === '' || bodies.size > 1).map(([id]) => id);
    ctx.expect(
      'HOOK-005',
      shared.length === 0 && deliveries.length > 0,
      {
        kind: 'delivery',
        message: 'different deliveries share an X-Service-Delivery-Id, or carry none',
        expected: 'one id per delivery',
        got: shared,
        evidence,
      },
      `${deliveries.length} deliveries, ${bodiesById.size} distinct ids`,
    );
    await ctx.http.delete(`/v1/webhooks/${subscription.id}`);
    await discard(ctx.http, completed.id);
  },
});

export const deliveriesListing = check('deliveries-listing', ['HOOK-007'], {
  title: 'The deliveries listing shows the attempts the receiver saw',
  preconditions: ['live', 'receiver-reachable'],
  async run(ctx) {
    const subscribed = await subscribe(ctx, ['session.cancelled']);
    if ('refused' in subscribed) {
      ctx.skip('HOOK-007', refusalReason(subscribed.refused));
      return;
    }
    const { subscription } = subscribed;
    await causeCancellation(ctx);
    await subscription.endpoint.waitFor((deliveries) => deliveries.length > 0, ctx.timeouts.sessionMs, ctx.signal);
    const received = subscription.endpoint.deliveries()[0];
    const deliveryId = received === undefined ? undefined : header(received, deliveryHeaders.deliveryId);
    // The attempt is recorded once the receiver has answered; give the target a moment to write it.
    let listing = await ctx.http.get(`/v1/webhooks/${subscription.id}/deliveries`);
    for (
      let tries = 0;
      tries < 20 &&
      !pageOf(listing).items.some((item) => (item as { delivery_id?: string }).delivery_id === deliveryId);
      tries++
    ) {
      await subscription.endpoint.waitFor(() => false, 50, ctx.signal);
      listing = await ctx.http.get(`/v1/webhooks/${subscription.id}/deliveries`);
    }
    const attempt = pageOf(listing).items.find(
      (item) => (item as { delivery_id?: string }).delivery_id === deliveryId,
    ) as Record<string, unknown> | undefined;
    ctx.expect(
      'HOOK-007',
      received !== undefined &&
        attempt !== undefined &&
        attempt['response_code'] === received.answered &&
        attempt['status'] === 'succeeded' &&
        attempt['event'] === 'session.cancelled',
      {
        kind: 'delivery',
        message: 'the listing does not show the attempt the receiver answered',
        expected: {
          delivery_id: deliveryId ?? null,
          response_code: received?.answered ?? null,
          status: 'succeeded',
          event: 'session.cancelled',
        },
        got: attempt ?? pageOf(listing).items,
        evidence: listing,
      },
      `the listing shows attempt ${String(attempt?.['attempt'])} of ${deliveryId} answered ${received?.answered}`,
    );
    await ctx.http.delete(`/v1/webhooks/${subscription.id}`);
  },
});

/**
 * The guard sits where the connection is made: whether a host is private is a fact of its addresses at
 * delivery time, not of the request, so the subscription is accepted (its URL is schema-valid) and every
 * attempt is refused before connecting. The subscription names the suite's receiver by the unspecified
 * address `0.0.0.0`, which Linux and macOS connect to the host itself: a server without the guard reaches
 * the receiver, and one that lets loopback through for testing still refuses it.
 */
export const urlGuard = check('url-guard', ['HOOK-011'], {
  title: 'Nothing is delivered to an address that is not public',
  preconditions: ['live'],
  async run(ctx) {
    const endpoint = (await ctx.receiver()).endpoint(200);
    const url = new URL(endpoint.url);
    url.hostname = '0.0.0.0';
    const { created, id } = await subscribeUrl(ctx, 'guard', url.href, ['session.cancelled']);
    if (id === undefined) {
      ctx.fail('HOOK-011', {
        kind: 'status',
        message: `a subscription to ${url.href} answered ${statusOf(created)}: its URL is schema-valid, so the guard belongs to delivery`,
        expected: 201,
        got: jsonOf(created) ?? statusOf(created),
        evidence: created,
      });
      return;
    }
    await causeCancellation(ctx);
    const attemptsOf = (exchange: Exchange) =>
      pageOf(exchange).items as Array<{ response_code?: unknown; status?: unknown }>;
    let listing = await ctx.http.get(`/v1/webhooks/${id}/deliveries`);
    const deadline = Date.now() + ctx.timeouts.sessionMs;
    while (attemptsOf(listing).length === 0 && Date.now() < deadline && !ctx.signal.aborted) {
      // The receiver as a bounded wait: it must stay empty, so this waits the full 100 ms.
      await endpoint.waitFor((deliveries) => deliveries.length > 0, 100, ctx.signal);
      listing = await ctx.http.get(`/v1/webhooks/${id}/deliveries`);
    }
    const attempts = attemptsOf(listing);
    const received = endpoint.deliveries().length;
    ctx.expect(
      'HOOK-011',
      received === 0 &&
        attempts.length > 0 &&
        attempts.every((attempt) => attempt.response_code === null && attempt.status !== 'succeeded'),
      {
        kind: 'delivery',
        message: `an event for a subscription to ${url.href} reached the receiver, or no refused attempt was listed`,
        expected: { received: 0, attempts: 'at least one, each with response_code null' },
        got: { received, attempts },
        evidence: listing,
      },
      `${attempts.length} attempts to ${url.host} refused without a response; the receiver saw nothing`,
    );
    await ctx.http.delete(`/v1/webhooks/${id}`);
  },
});

export const webhookChecks = [subscribeCheck, delivery, deliveriesListing, urlGuard];
