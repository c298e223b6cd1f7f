/**
 * Webhook subscriptions pointed at the suite's receiver, and events the suite can cause on demand.
 * @module
 */
import type { CheckContext } from './check.js';
import { type Exchange, jsonOf } from './exchange.js';
import type { Answer, ReceiverEndpoint } from './receiver.js';
import { marker, startMarkedSession } from './sessions.js';

export interface Subscription {
  id: string;
  secret: string;
  endpoint: ReceiverEndpoint;
  exchange: Exchange;
  retrySchedule: { waits_minutes: number[]; max_attempts: number } | undefined;
}

export type Subscribed = { subscription: Subscription } | { refused: Exchange };

export async function subscribe(
  ctx: CheckContext,
  events: readonly string[],
  answer: Answer = 200,
): Promise<Subscribed> {
  const endpoint = (await ctx.receiver()).endpoint(answer);
  const exchange = await ctx.http.post('/v1/webhooks', { label: marker('webhooks'), url: endpoint.url, events });
  const body = (jsonOf(exchange) ?? {}) as {
    subscription?: { id?: unknown; retry_schedule?: Subscription['retrySchedule'] };
    signing_secret?: unknown;
  };
  if (typeof body.signing_secret === 'string') {
    ctx.secrets.add(body.signing_secret);
  }
  const id = body.subscription?.id;
  if (typeof id !== 'string' || typeof body.signing_secret !== 'string') {
    return { refused: exchange };
  }
  let retrySchedule = body.subscription?.retry_schedule;
  if (retrySchedule === undefined) {
    retrySchedule = (
      jsonOf(await ctx.http.get(`/v1/webhooks/${id}`)) as { retry_schedule?: Subscription['retrySchedule'] } | undefined
    )?.retry_schedule;
  }
  return { subscription: { id, secret: body.signing_secret, endpoint, exchange, retrySchedule } };
}

/**
 * Subscribes `url` to `events` under a new marker of `purpose`, the signing secret kept among the run's
 * secrets; `id` is `undefined` when the target did not create the subscription.
 */
export async function subscribeUrl(
  ctx: Pick<CheckContext, 'http' | 'secrets'>,
  purpose: string,
  url: string,
  events: readonly string[],
): Promise<{ created: Exchange; id: string | undefined }> {
  const created = await ctx.http.post('/v1/webhooks', { label: marker(purpose), url, events });
  const body = (jsonOf(created) ?? {}) as { subscription?: { id?: unknown }; signing_secret?: unknown };
  if (typeof body.signing_secret === 'string') {
    ctx.secrets.add(body.signing_secret);
  }
  const id = body.subscription?.id;
  return { created, id: typeof id === 'string' ? id : undefined };
}

/** Subscribes like `subscribe`, or records for each of `requirements` why it could not (the refusal) and gives nothing. */
export async function subscribeFor(
  ctx: CheckContext,
  requirements: readonly string[],
  events: readonly string[],
  answer: Answer = 200,
): Promise<Subscription | undefined> {
  const subscribed = await subscribe(ctx, events, answer);
  if ('refused' in subscribed) {
    requirements.forEach((requirement) => ctx.skip(requirement, refusalReason(subscribed.refused)));
    return undefined;
  }
  return subscribed.subscription;
}

/** The reason a check skips when the target refuses the receiver's URL. */
export function refusalReason(refused: Exchange): string {
  return `the target refused a subscription to the suite's receiver on 127.0.0.1 (${refused.response?.status}); the reference server does with \`boardkit serve --allow-loopback-webhooks\``;
}

/**
 * Causes one `session.cancelled`: starts a ten-round session and cancels it. A session that finished
 * before the cancel arrived (a very fast clock) is replaced by another, up to three times.
 */
export async function causeCancellation(ctx: Pick<CheckContext, 'http' | 'contract' | 'target'>): Promise<string> {
  for (let tries = 0; ; tries++) {
    const started = await startMarkedSession(ctx, 'webhook event', 10);
    const cancelled = await ctx.http.post(`/v1/sessions/${started.id}/cancel`);
    if (cancelled.response?.status === 200 || tries === 2) {
      return started.id;
    }
  }
}

/** Maps a real time (epoch ms) to the target's time, from one reading of the target's clock. */
export async function targetTimeOf(ctx: CheckContext): Promise<(realMs: number) => number> {
  if (!ctx.clock.known) {
    return (realMs) => realMs;
  }
  const targetNow = await ctx.clock.now();
  const realNow = Date.now();
  const scale = ctx.clock.scale();
  return (realMs) => targetNow - (realNow - realMs) * scale;
}
