/**
 * `boardkit webhooks trigger --set path=value`: single fields of a delivery body changed on the command
 * line, checked against the event's schema unless `--no-validate`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applyOverrides, parseOverride } from '../../src/webhook-tools/overrides.js';
import { createWebhookSecret } from '../../src/webhooks/ids.js';
import { verifyDelivery } from '../../src/webhooks/signing.js';
import { runBoardkit } from '../support/boardkit.js';
import { startCaptureReceiver, type CaptureReceiver } from './capture-receiver.js';

describe('a --set assignment', () => {
  test('reads a dotted path with array indexes, and a JSON value or else text', () => {
    expect(parseOverride('data.items[1].title=Plan B')).toEqual({
      path: 'data.items[1].title',
      segments: ['data', 'items', 1, 'title'],
      value: 'Plan B',
    });
    expect(parseOverride('data.credits_charged=12').value).toBe(12);
    expect(parseOverride('data.verdict="12"').value).toBe('12');
    expect(parseOverride('data.flags={"a":[1,null]}').value).toEqual({ a: [1, null] });
    expect(parseOverride('data.note=a=b').value).toBe('a=b');
    expect(parseOverride('data.note=').value).toBe('');
    for (const bad of ['=1', 'data', 'data..verdict=1', 'data.[0]=1', 'data[x]=1', '.data=1']) {
      expect(() => parseOverride(bad), bad).toThrow(/--set/);
    }
  });

  test('changes the fields named, creates missing members, and refuses a path through a value', () => {
    const body = { event: 'session.complete', data: { session_id: 's', items: [{ title: 'A' }] } };
    const changed = applyOverrides(body, [
      parseOverride('data.items[0].title=B'),
      parseOverride('data.items[1]={"title":"C"}'),
      parseOverride('data.extra.depth=2'),
    ]);
    expect(changed).toEqual({
      event: 'session.complete',
      data: { session_id: 's', items: [{ title: 'B' }, { title: 'C' }], extra: { depth: 2 } },
    });
    expect(body.data.items).toEqual([{ title: 'A' }]);
    expect(() => applyOverrides(body, [parseOverride('data.session_id.x=1')])).toThrow(
      /data.session_id is not an object/,
    );
    expect(() => applyOverrides(body, [parseOverride('data.items[5]=1')])).toThrow(/past the end/);
    expect(() => applyOverrides(body, [parseOverride('data[0]=1')])).toThrow(/data is not an array/);
  });
});

describe('trigger --set', () => {
  const secret = createWebhookSecret();
  let receiver: CaptureReceiver;

  beforeAll(async () => {
    receiver = await startCaptureReceiver();
  });

  afterAll(() => receiver.close());

  test('sends the example with the fields set, signed', async () => {
    const run = await runBoardkit([
      'webhooks',
      'trigger',
      'session.complete',
      '--url',
      receiver.url,
      '--secret',
      secret,
      '--set',
      'data.credits_charged=12',
      '--set',
      'data.verdict=Ship it in March',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const one = receiver.received.at(-1)!;
    expect(verifyDelivery({ secret, rawBody: one.body, headers: one.headers })).toEqual({ ok: true });
    expect(JSON.parse(one.body.toString('utf8'))).toMatchObject({
      event: 'session.complete',
      data: { credits_charged: 12, verdict: 'Ship it in March' },
    });
  });

  test('refuses a body the schema does not allow, naming the field, unless --no-validate', async () => {
    const count = receiver.received.length;
    const args = ['webhooks', 'trigger', 'session.complete', '--url', receiver.url, '--secret', secret];
    const refused = await runBoardkit([...args, '--set', 'data.credits_charged="twelve"']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('the session.complete body does not match its schema');
    expect(refused.stderr).toContain('/data/credits_charged must be integer');
    expect(receiver.received.length).toBe(count);
    const sent = await runBoardkit([...args, '--set', 'data.credits_charged="twelve"', '--no-validate']);
    expect(sent.code).toBe(0);
    expect(JSON.parse(receiver.received.at(-1)!.body.toString('utf8'))).toMatchObject({
      data: { credits_charged: 'twelve' },
    });
  });
});
