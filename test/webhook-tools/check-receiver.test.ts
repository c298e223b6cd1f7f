/**
 * `boardkit webhooks check-receiver` against receivers written here: the correct one passes every
 * requirement of the receiver registry, and each broken one fails exactly the requirement of its mistake.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { checkReceiver } from '../../src/webhook-tools/check-receiver.js';
import { createWebhookSecret } from '../../src/webhooks/ids.js';
import { receiverBehaviours, startReceiver, type TestReceiver } from './receivers.js';

const document = loadContract();
let receiver: TestReceiver | undefined;

afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function failedRequirements(behaviour: keyof typeof receiverBehaviours): Promise<string[]> {
  const secret = createWebhookSecret();
  receiver = await startReceiver(receiverBehaviours[behaviour](secret));
  const result = await checkReceiver(document, { url: receiver.url, secret, handledUrl: receiver.handledUrl });
  // Only the rotation case needs a previous secret, which these receivers do not hold.
  const unchecked = result.requirements.filter((one) => one.status === 'error' || one.status === 'skip');
  expect(unchecked.map((one) => one.id)).toEqual(['RECV-014']);
  expect(result.exitCode).toBe(result.summary.mustFailures.length > 0 ? 1 : 0);
  return result.requirements.filter((one) => one.status === 'fail').map((one) => one.id);
}

describe('check-receiver', () => {
  test('a correct receiver passes every requirement', async () => {
    expect(await failedRequirements('correct')).toEqual([]);
  });

  test.each([
    ['acceptsStaleTimestamps', ['RECV-004']],
    ['signsParsedJson', ['RECV-006']],
    // A retry carries the id of a delivery already seen, as a duplicate does.
    ['failsDuplicates', ['RECV-002', 'RECV-011']],
    ['ignoresMissingHeaders', ['RECV-005']],
  ] as const)('a receiver that %s fails %j alone', async (behaviour, requirements) => {
    expect(await failedRequirements(behaviour)).toEqual(requirements);
  });

  test('a duplicate handled twice fails RECV-002 even when both answers are 2xx', async () => {
    const secret = createWebhookSecret();
    receiver = await startReceiver((rawBody, headers, handled) => {
      const status = receiverBehaviours.correct(secret)(rawBody, headers, []);
      if (status === 204) {
        handled.push(String(headers['x-service-delivery-id']));
      }
      return status;
    });
    const result = await checkReceiver(document, { url: receiver.url, secret, handledUrl: receiver.handledUrl });
    const duplicate = result.requirements.find((one) => one.id === 'RECV-002');
    expect(duplicate?.status).toBe('fail');
    expect(duplicate?.observations[0]?.message).toMatch(/handled delivery dlv_\w+ 2 time/);
    expect(result.summary.mustFailures).toEqual(['RECV-002', 'RECV-011']);
  });

  test('a receiver on another host is refused unless allowed', async () => {
    await expect(
      checkReceiver(document, { url: 'http://192.0.2.1/hooks', secret: createWebhookSecret() }),
    ).rejects.toThrow(/not a loopback address; pass --allow-remote/);
  });
});
