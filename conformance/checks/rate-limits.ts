/**
 * Rate limits (seed "Limits" 1, "Errors"): the suite spends a bucket's quota, then checks the 429, its
 * Retry-After (by waiting exactly that long), the RateLimit headers, and that another workspace's key is
 * unaffected. It spends quota, so it runs only when selected, and last.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { type Exchange, jsonOf } from '../harness/exchange.js';
import { expectProblem, statusOf } from './problem-shape.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';

const check = checksOf('rate-limits');

/** `"<bucket>";r=<remaining>;t=<reset>` or `"<bucket>";q=<quota>;w=<window>` (draft-ietf-httpapi-ratelimit-headers-10). */
function fieldsOf(value: string | undefined): { bucket: string; values: Record<string, number> } | undefined {
  const match = /^"([^"]+)"((?:;[a-z]+=\d+)*)$/.exec(value?.trim() ?? '');
  if (match === null) {
    return undefined;
  }
  const values = Object.fromEntries(
    [...(match[2] ?? '').matchAll(/;([a-z]+)=(\d+)/g)].map(([, name, number]) => [name!, Number(number)]),
  );
  return { bucket: match[1]!, values };
}

/** Cancelling a session that does not exist: counted against the run-control bucket, and it changes nothing. */
function spend(
  ctx: CheckContext,
  client = ctx.http,
  path = `/v1/sessions/ses_${randomBytes(13).toString('hex')}/cancel`,
): Promise<Exchange> {
  return client.post(path, {}, { retryRateLimited: false });
}

const maxRequests = 400;

export const quota = check('quota', ['RATE-001', 'RATE-002', 'RATE-003', 'RATE-004', 'RATE-005'], {
  title: 'Past its quota a key gets a truthful 429; other keys do not',
  preconditions: ['live', 'opt-in'],
  phase: 'exclusive',
  async run(ctx) {
    // At real speed the window cannot roll over in the middle of the burst.
    await ctx.clock.withScale(1, () => exhaust(ctx));
  },
});

async function exhaust(ctx: CheckContext): Promise<void> {
  const path = `/v1/sessions/ses_${randomBytes(13).toString('hex')}/cancel`;
  const counted: Exchange[] = [];
  let limited: Exchange | undefined;
  // The remaining quota the first answer announces bounds the burst; without it, `maxRequests` does. A
  // window may end mid-burst (a fixed window is aligned to the clock, not to the first request): the
  // quota then rises again, and so does the bound.
  let budget = maxRequests;
  let lastRemaining: number | undefined;
  let restarts = 0;
  for (let index = 0; index < budget && limited === undefined; index++) {
    const exchange = await spend(ctx, ctx.http, path);
    if (statusOf(exchange) === 429) {
      limited = exchange;
    } else {
      counted.push(exchange);
    }
    const remaining = fieldsOf(exchange.response?.headers['ratelimit'])?.values['r'];
    if (remaining !== undefined && (lastRemaining === undefined || remaining > lastRemaining)) {
      restarts += lastRemaining === undefined ? 0 : 1;
      budget = Math.min(maxRequests, index + 1 + remaining + 10);
    }
    lastRemaining = remaining ?? lastRemaining;
  }
  if (limited === undefined && !ctx.clock.known && restarts > 1) {
    // At real speed a burst of a few seconds sees a window start again at most once.
    const reason = `the quota window started again ${restarts} times during a burst of ${counted.length} requests: the target's clock runs faster than real time, and without time control the suite cannot spend a quota`;
    ['RATE-001', 'RATE-002', 'RATE-003', 'RATE-004', 'RATE-005'].forEach((requirement) =>
      ctx.skip(requirement, reason),
    );
    return;
  }
  const remaining = counted.map((exchange) => fieldsOf(exchange.response?.headers['ratelimit']));
  const policies = counted.map((exchange) => fieldsOf(exchange.response?.headers['ratelimit-policy']));
  // Each request takes one from the remaining quota, unless the window reset in between (r rises again).
  const consistent = remaining.every((fields, index) => {
    const policy = policies[index];
    const previous = remaining[index - 1]?.values['r'];
    const now = fields?.values['r'];
    return (
      fields !== undefined &&
      policy !== undefined &&
      now !== undefined &&
      fields.bucket === policy.bucket &&
      now <= (policy.values['q'] ?? -1) &&
      (previous === undefined || now === previous - 1 || now > previous)
    );
  });
  const reachedZero = limited === undefined || remaining.at(-1)?.values['r'] === 0;
  ctx.expect(
    'RATE-004',
    counted.length > 0 && consistent && reachedZero,
    {
      kind: 'header',
      message: 'RateLimit and RateLimit-Policy disagree, or the remaining quota does not fall by one to 0',
      expected: 'same bucket; r = q - n, down to 0',
      got: counted
        .slice(0, 3)
        .concat(counted.slice(-3))
        .map((exchange) => ({
          RateLimit: exchange.response?.headers['ratelimit'] ?? null,
          'RateLimit-Policy': exchange.response?.headers['ratelimit-policy'] ?? null,
        })),
      evidence: counted.slice(-3),
    },
    `${counted.length} requests counted down in bucket ${remaining[0]?.bucket}`,
  );
  if (limited === undefined) {
    ctx.fail('RATE-001', {
      kind: 'status',
      message: `no 429 after ${counted.length} requests`,
      expected: 429,
      got: statusOf(counted.at(-1)!),
      evidence: counted.slice(-3),
    });
    ['RATE-002', 'RATE-003', 'RATE-005'].forEach((requirement) => ctx.skip(requirement, 'the limit was never reached'));
    return;
  }
  const retryAfterText = limited.response?.headers['retry-after'];
  const retryAfter = /^\d+$/.test(retryAfterText ?? '') ? Number(retryAfterText) : undefined;
  if (expectProblem(ctx, 'RATE-001', limited, 429, 'rate-limited', `request ${counted.length + 1}`)) {
    ctx.expect(
      'RATE-001',
      retryAfter !== undefined,
      {
        kind: 'header',
        message: 'the 429 has no Retry-After in seconds',
        expected: 'Retry-After: <seconds>',
        got: retryAfterText ?? null,
        evidence: limited,
      },
      `Retry-After: ${retryAfterText}`,
    );
  }
  const inBody = (jsonOf(limited) as { retry_after_s?: unknown } | undefined)?.retry_after_s;
  if (inBody === undefined) {
    ctx.skip('RATE-005', 'the 429 body does not repeat the wait (retry_after_s is an optional variant)');
  } else {
    ctx.expect(
      'RATE-005',
      inBody === retryAfter,
      {
        kind: 'problem',
        message: 'retry_after_s differs from Retry-After',
        expected: retryAfter ?? null,
        got: inBody,
        evidence: limited,
      },
      'retry_after_s equals Retry-After',
    );
  }
  if (ctx.httpB === undefined) {
    ctx.skip('RATE-003', 'needs a key of another workspace');
  } else {
    const other = await spend(ctx, ctx.httpB);
    ctx.expect(
      'RATE-003',
      statusOf(other) !== 429,
      {
        kind: 'isolation',
        message: "the other workspace's key was limited too",
        expected: 'not 429',
        got: statusOf(other),
        evidence: other,
      },
      `the other workspace's key answered ${statusOf(other)}`,
    );
  }
  if (retryAfter === undefined) {
    ctx.skip('RATE-002', 'there is no Retry-After to test');
    return;
  }
  // Only the wait is judged, not a request made before it ends: Retry-After is the least a client ought to
  // wait (RFC 9110 §10.2.3), "bursting is permitted" (seed "Limits" 1), and a limiter may refill sooner or
  // count a refused request; such a probe could only fail a legal limiter.
  await ctx.clock.elapse(retryAfter * 1000 + 250, ctx.signal);
  const after = await spend(ctx, ctx.http, path);
  ctx.expect(
    'RATE-002',
    statusOf(after) !== 429,
    {
      kind: 'timing',
      message: `after waiting Retry-After (${retryAfter} s) the request was still limited`,
      expected: 'not 429',
      got: statusOf(after),
      evidence: [limited, after],
    },
    `accepted after waiting ${retryAfter} s`,
  );
}

export const rateLimitChecks = [quota];
