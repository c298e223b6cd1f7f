/**
 * The receiver suite's cases for the ways real deliveries arrive (RECV-010 to RECV-014), against a
 * receiver written as docs/webhooks.md shows: the correct one passes them, and each receiver with one
 * mistake fails exactly the requirement of that mistake, with a message that says what went wrong.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { checkReceiver, type CheckReceiverOptions } from '../../src/webhook-tools/check-receiver.js';
import { createWebhookSecret } from '../../src/webhooks/ids.js';
import type { TestReceiver } from './receivers.js';
import { startUserReceiver, type Mistakes } from './user-receiver.js';

const document = loadContract();
/** Short enough to keep the slow case quick, long enough for a loaded machine's loopback. */
const timeoutMs = 2_000;
let receiver: TestReceiver | undefined;

afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function check(mistakes: Mistakes, options: Partial<CheckReceiverOptions> = {}) {
  const secret = createWebhookSecret();
  const previousSecret = createWebhookSecret();
  receiver = await startUserReceiver([secret, previousSecret], mistakes);
  return checkReceiver(document, {
    url: receiver.url,
    secret,
    previousSecret,
    handledUrl: receiver.handledUrl,
    timeoutMs,
    ...options,
  });
}

function failed(result: Awaited<ReturnType<typeof check>>): string[] {
  return result.requirements.filter((one) => one.status === 'fail').map((one) => one.id);
}

function messages(result: Awaited<ReturnType<typeof check>>, id: string): string[] {
  return result.requirements.find((one) => one.id === id)?.observations.map((one) => one.message) ?? [];
}

describe('the delivery-condition cases', () => {
  test('a correct receiver passes every requirement, each of them checked', async () => {
    const result = await check({});
    expect(result.requirements.filter((one) => one.status !== 'pass')).toEqual([]);
    expect(result.exitCode).toBe(0);
    for (const name of ['receiver.out-of-order', 'receiver.redelivery', 'receiver.rotation']) {
      expect(result.checks.find((one) => one.name === name)?.status, name).toBe('pass');
    }
  });

  test('a receiver that refuses an earlier event after a later one fails RECV-010 alone', async () => {
    const result = await check({ refusesOlderEvents: true });
    expect(failed(result)).toEqual(['RECV-010']);
    expect(messages(result, 'RECV-010')[0]).toMatch(/^outcomes.ready of a session, then .*got 204, 409$/);
  });

  test('a receiver that answers 2xx to an earlier event but drops it fails RECV-010 on what it handled', async () => {
    const result = await check({ dropsOlderEvents: true });
    expect(failed(result)).toEqual(['RECV-010']);
    expect(messages(result, 'RECV-010')).toContainEqual(expect.stringMatching(/handled delivery dlv_\w+ 0 time/));
  });

  test('a receiver that deduplicates by signature handles a retry twice and fails RECV-011 alone', async () => {
    const result = await check({ deduplicatesBySignature: true });
    expect(failed(result)).toEqual(['RECV-011']);
    expect(messages(result, 'RECV-011')).toContainEqual(expect.stringMatching(/handled delivery dlv_\w+ 2 time/));
  });

  test('a receiver slower than the attempt timeout fails RECV-012 and is told why', async () => {
    const result = await check({ slow: { event: 'session.cancelled', ms: timeoutMs + 1_000 } });
    expect(failed(result)).toEqual(['RECV-012']);
    expect(messages(result, 'RECV-012')[0]).toContain(
      "got no answer: no answer within 2 s, the contract's attempt timeout (x-webhook-delivery.attempt_timeout_seconds)",
    );
    expect(result.summary.mustFailures).toEqual(['RECV-012']);
  });

  test('a receiver that reads only the seed envelope fails RECV-013, unless checked with that envelope alone', async () => {
    const both = await check({ seedEnvelopeOnly: true });
    expect(failed(both)).toEqual(['RECV-013']);
    const failures = both.checks.filter((one) => one.status === 'fail').map((one) => one.name);
    expect(failures).toEqual(['receiver.envelope-published', 'receiver.envelope-published-short']);
    await receiver?.close();
    const seedOnly = await check({ seedEnvelopeOnly: true }, { envelope: 'seed' });
    expect(failed(seedOnly)).toEqual([]);
    const envelope = seedOnly.requirements.find((one) => one.id === 'RECV-013');
    expect(envelope?.reason).toContain('not checked with the published envelope');
  });

  test('a receiver that expects the published envelope is checked with it throughout', async () => {
    const result = await check({}, { envelope: 'published' });
    expect(result.requirements.filter((one) => one.status !== 'pass')).toEqual([]);
    const bodies = result.requirements
      .find((one) => one.id === 'RECV-011')
      ?.observations[0]?.evidence.map((exchange) => JSON.parse(exchange.request.body ?? '') as Record<string, unknown>);
    expect(bodies?.map((body) => body['delivery_attempt'])).toEqual([1, 2]);
    expect(bodies?.map((body) => body['type'])).toEqual(['session.complete', 'session.complete']);
  });

  test('a receiver that drops the previous secret too early fails RECV-014, a SHOULD; without it the case is skipped', async () => {
    const result = await check({ ignoresPreviousSecret: true });
    expect(failed(result)).toEqual(['RECV-014']);
    expect(result.summary.verdict).toBe('conformant');
    await receiver?.close();
    const unchecked = await check({}, { previousSecret: undefined });
    const rotation = unchecked.requirements.find((one) => one.id === 'RECV-014');
    expect(rotation).toMatchObject({ status: 'skip', remedy: '--previous-secret with the secret being replaced' });
    expect(unchecked.requirements.filter((one) => one.status === 'fail')).toEqual([]);
    expect(unchecked.exitCode).toBe(0);
  });
});
