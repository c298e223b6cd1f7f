/**
 * The rewriting proxy really answers in each variant's way, on the wire (raw header names, framing,
 * bytes), so that the suite's passing verdict through it (equivalence.test.ts) means something.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signatureValid, bodyOf } from '../../../conformance/harness/deliveries.js';
import { WebhookReceiver } from '../../../conformance/harness/receiver.js';
import { keyA, startReferenceTarget, type ReferenceTarget } from '../support/reference-target.js';
import { startRewritingProxy, type RewritingProxy, type Variant } from './proxy.js';
import { openContractVariants, variants, wireForms, type WireForm } from './variants.js';

interface Raw {
  status: number;
  rawHeaders: string[];
  chunks: string[];
  text: string;
}

/** One request as bytes on the wire: raw header names, and each chunk as it arrived. */
function raw(url: string, method = 'GET', body?: unknown): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${keyA}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    const outgoing = request(url, { method, headers }, (response) => {
      const chunks: string[] = [];
      response.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, rawHeaders: response.rawHeaders, chunks, text: chunks.join('') }),
      );
    });
    outgoing.on('error', reject).end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const row = (start: string): Variant =>
  Object.entries(wireForms).find(([name]) => name.startsWith(start))?.[1] ??
  [...variants, ...openContractVariants].find((one) => one.name.startsWith(start))!.variant!;
const namesOf = (answer: Raw): string[] => answer.rawHeaders.filter((_, index) => index % 2 === 0);
function headerOf(answer: Raw, name: string): string | undefined {
  const index = answer.rawHeaders.findIndex((one, at) => at % 2 === 0 && one.toLowerCase() === name);
  return index < 0 ? undefined : answer.rawHeaders[index + 1];
}
const lineup = { mode: 'boardroom', title: 'Proxy check', synths: ['cfo', 'skeptic'], rounds: 1 };

let target: ReferenceTarget;
const proxies: RewritingProxy[] = [];

async function through(variant: Variant): Promise<string> {
  const proxy = await startRewritingProxy(target.baseUrl, variant);
  proxies.push(proxy);
  return proxy.baseUrl;
}

/** A session of the target that has completed, for a finite event stream. */
async function completedSession(base: string): Promise<string> {
  const started = JSON.parse((await raw(`${base}/v1/sessions`, 'POST', lineup)).text) as {
    id?: string;
    session_id?: string;
  };
  const id = started.id ?? started.session_id ?? '';
  for (let status = ''; status !== 'complete';) {
    status = (JSON.parse((await raw(`${base}/v1/sessions/${id}?wait_ms=5000`)).text) as { status: string }).status;
  }
  return id;
}

beforeAll(async () => {
  target = await startReferenceTarget();
});

afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await target?.close();
});

describe("the proxy answers in each variant's way", () => {
  test('header names in another case, Content-Type with or without charset', async () => {
    const upper = await raw(`${await through(row('header names in upper case'))}/v1/health`);
    const direct = namesOf(await raw(`${target.baseUrl}/v1/health`));
    expect(direct).toContain('content-type');
    // Node adds Connection and Keep-Alive itself; every header of the server's answer is upper case.
    const fromServer = direct.filter((name) => !/^(connection|keep-alive|content-length)$/i.test(name));
    expect(namesOf(upper)).toEqual(expect.arrayContaining(fromServer.map((name) => name.toUpperCase())));
    expect(namesOf(upper).filter((name) => fromServer.includes(name))).toEqual([]);
    const plain = await raw(`${await through(row('Content-Type without'))}/v1/health`);
    expect(headerOf(plain, 'content-type')).toBe('application/json');
    const charset = await raw(
      `${await through(row('Content-Type with a charset'))}/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E`,
    );
    expect(headerOf(charset, 'content-type')).toMatch(/^application\/problem\+json; ?charset=utf-8$/i);
  });

  test('JSON pretty-printed with its keys reordered, and bodies in chunks', async () => {
    const direct = JSON.parse((await raw(`${target.baseUrl}/v1/health`)).text) as object;
    const pretty = await raw(`${await through(row('JSON with keys'))}/v1/health`);
    expect(pretty.text).toMatch(/^\{\n {2}"/);
    expect(Object.keys(JSON.parse(pretty.text) as object)).toEqual(Object.keys(direct).reverse());
    const chunked = await raw(`${await through(row('chunked'))}/v1/health`);
    expect(headerOf(chunked, 'transfer-encoding')).toBe('chunked');
    expect(headerOf(chunked, 'content-length')).toBeUndefined();
  });

  test('unknown members, problem types on another host, and start response A1', async () => {
    const extra = JSON.parse((await raw(`${await through(row('extra unknown'))}/v1/health`)).text) as Record<
      string,
      unknown
    >;
    expect(extra['x_added_later']).toBeDefined();
    const problem = JSON.parse(
      (await raw(`${await through(row('problem type'))}/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E`)).text,
    ) as { type: string };
    expect(problem.type).toBe('https://errors.another-host.example/docs/problems/not-found');
    const a1 = JSON.parse(
      (await raw(`${await through(row('start response A1'))}/v1/sessions`, 'POST', lineup)).text,
    ) as object;
    expect(Object.keys(a1)).toEqual(['session_id']);
  });

  test('a row of wire forms together applies each of them', async () => {
    const first = variants.find((one) => one.name.includes('header names in upper case' satisfies WireForm))!;
    const base = await through(first.variant!);
    const health = await raw(`${base}/v1/health`);
    expect(namesOf(health)).toContain('CONTENT-TYPE');
    expect(headerOf(health, 'content-type')).toMatch(/; ?charset=utf-8$/);
    expect(headerOf(health, 'transfer-encoding')).toBe('chunked');
    expect(health.text).toMatch(/^\{\n {2}"/);
    const problem = JSON.parse((await raw(`${base}/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E`)).text) as {
      type: string;
    };
    expect(problem.type).toBe('https://errors.another-host.example/docs/problems/not-found');
    const second = variants.find((one) => one.name.includes('start response A1 (session_id only)' satisfies WireForm))!;
    const a1 = await raw(`${await through(second.variant!)}/v1/sessions`, 'POST', lineup);
    expect(namesOf(a1)).toContain('Content-Type');
    expect(headerOf(a1, 'content-type')).toBe('application/json');
    expect(Object.keys(JSON.parse(a1.text) as object)).toEqual(['session_id']);
  });

  test('event streams with comments, CRLF line ends, and events split across writes', async () => {
    const id = await completedSession(target.baseUrl);
    const base = await through(row('event streams with comment'));
    const stream = await raw(`${base}/v1/sessions/${id}/events?finite=true`);
    expect(stream.text).toMatch(/^: a comment between fields\r\ndata:/m);
    expect(stream.text).toContain('\r\n\r\n');
    expect(stream.text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(stream.chunks.length).toBeGreaterThan(stream.text.split('\r\n\r\n').length);
  });

  test('pages shorter than limit, and session reads without optional members', async () => {
    const short = JSON.parse((await raw(`${await through(row('list pages shorter'))}/synths?limit=5`)).text) as {
      items: unknown[];
      next_cursor: unknown;
    };
    expect({ items: short.items.length, more: typeof short.next_cursor }).toEqual({ items: 4, more: 'string' });
    const started = JSON.parse((await raw(`${target.baseUrl}/v1/sessions`, 'POST', lineup)).text) as { id: string };
    const read = JSON.parse(
      (await raw(`${await through(row('session reads without'))}/v1/sessions/${started.id}`)).text,
    ) as Record<string, unknown>;
    expect(read['estimated_cost_credits']).toBeUndefined();
    // A running session has not completed: its optional completed_at, null on the server, is left out.
    expect('completed_at' in read).toBe(false);
    expect(read['status']).toBeDefined();
  });

  test('session ids as UUIDs, both ways', async () => {
    const base = await through(row('session ids as UUIDs'));
    const started = JSON.parse((await raw(`${base}/v1/sessions`, 'POST', lineup)).text) as { session_id: string };
    expect(started.session_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    const read = await raw(`${base}/v1/sessions/${started.session_id}`);
    const session = JSON.parse(read.text) as { id: string; outcomes_url: string };
    expect({ status: read.status, id: session.id }).toEqual({ status: 200, id: started.session_id });
    expect(session.outcomes_url).toBe(`${base}/v1/sessions/${started.session_id}/outcomes`);
  });

  test('a delivery on its way to a loopback receiver is rewritten and signed again', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const base = await through(row('extra unknown'));
      const endpoint = receiver.endpoint();
      const created = JSON.parse(
        (await raw(`${base}/v1/webhooks`, 'POST', { label: 'proxy', url: endpoint.url, events: ['session.cancelled'] }))
          .text,
      ) as { signing_secret: string; subscription: { id: string } };
      const shown = JSON.parse((await raw(`${base}/v1/webhooks/${created.subscription.id}`)).text) as { url: string };
      expect(shown.url).toBe(endpoint.url);
      const started = JSON.parse((await raw(`${base}/v1/sessions`, 'POST', { ...lineup, rounds: 10 })).text) as {
        id: string;
      };
      expect((await raw(`${base}/v1/sessions/${started.id}/cancel`, 'POST', {})).status).toBe(200);
      expect(await endpoint.waitFor((deliveries) => deliveries.length > 0, 10_000)).toBe(true);
      const [delivery] = endpoint.deliveries();
      expect(bodyOf(delivery!)?.['x_added_later']).toBeDefined();
      expect(signatureValid(delivery!, created.signing_secret)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
