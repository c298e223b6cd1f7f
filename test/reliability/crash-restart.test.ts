/**
 * Crashes (docs/reliability.md "Crashes"). `boardkit serve` runs as a child process under a steady trickle
 * of starts and cancels, with a webhook receiver that fails the first attempt of every other delivery, and
 * is killed with SIGKILL at random moments, then started again on the same database, several times over.
 * After the last restart:
 * - every session ends `complete`, `failed` or `cancelled` by the rules of docs/session-lifecycle.md
 *   (failed only when asked to fail, cancelled only when asked to cancel), none stays `running`, and its
 *   event stream numbers its events 1, 2, 3, … with one terminal event;
 * - every webhook that fell due is delivered at least once, and every repeat of an event carries the same
 *   delivery id and body, so a receiver can deduplicate by `X-Service-Delivery-Id`;
 * - every start can be retried with its `Idempotency-Key`: an answered one is replayed byte for byte, an
 *   interrupted one is answered, and no key ever makes a second session;
 * - the credits balance: each session was charged what it ran and refunded the rest.
 *
 * The kill times and the traffic are random but seeded: the seed is printed, and
 * `BOARDKIT_CRASH_SEED=<seed>` runs the same kill times and the same sequence of requests again. Simulated
 * time runs 60 times faster, so a run lasts about a second and a retry waits one; `npm test` builds `lib/`
 * first, which the child process runs.
 */
import { EventEmitter, once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { seededRandom } from '../../bench/support/seeded-random.mjs';
import { startChildServer, type ChildServer } from './child-server.js';

const seed = Number(process.env['BOARDKIT_CRASH_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
/** The traffic's choices, and apart from them the kill times, so that the kills fall alike on a rerun. */
const random = seededRandom(seed);
const killRandom = seededRandom(seed ^ 0x9e3779b9);
const timeScale = 60;
const crashes = 5;
/** Four workspaces, so that the starts stay within each key's 60 a minute (seed "Limits"). */
const apiKeys = [1, 2, 3, 4].map((n) => `sk_test_crashrestart0000000000${n}`);
const terminal = ['complete', 'failed', 'cancelled'] as const;
const failMarker = ' [simulate:upstream_error]';

let folder: string;
let receiver: Server;
let receiverUrl: string;

interface Received {
  deliveryId: string;
  event: string;
  rawBody: string;
  status: number;
}
const received: Received[] = [];
/** Signals each delivery the receiver records, so that a wait for deliveries checks as each arrives. */
const arrivals = new EventEmitter();

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'boardkit-crash-'));
  const failedOnce = new Set<string>();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const deliveryId = String(request.headers['x-service-delivery-id']);
      // The first attempt of every other delivery fails, so that retries are waiting when the server dies.
      const fails = deliveryId.charCodeAt(deliveryId.length - 1) % 2 === 0 && !failedOnce.has(deliveryId);
      failedOnce.add(deliveryId);
      const status = fails ? 500 : 200;
      received.push({
        deliveryId,
        event: String(request.headers['x-service-event']),
        rawBody: Buffer.concat(chunks).toString('utf8'),
        status,
      });
      arrivals.emit('delivery');
      // Answering takes a while, so that kills fall while attempts are in flight.
      setTimeout(() => response.writeHead(status).end(), 20);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/hooks`;
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

interface PlannedStart {
  apiKey: string;
  idempotencyKey: string;
  body: { mode: string; title: string; synths: string[]; rounds: number };
  /** The answer, when one arrived before a crash. */
  answer?: string;
  sessionId?: string;
  cancelAsked: boolean;
}

const starts: PlannedStart[] = [];

interface CallOptions {
  apiKey: string;
  method?: string;
  json?: unknown;
  idempotencyKey?: string;
}

function call(server: ChildServer, path: string, init: CallOptions): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${init.apiKey}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.idempotencyKey === undefined ? {} : { 'idempotency-key': init.idempotencyKey }),
    },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
}

function planStart(): PlannedStart {
  const n = starts.length + 1;
  const synths = random() < 0.5 ? ['cfo', 'skeptic'] : ['cfo', 'skeptic', 'strategist'];
  const fails = random() < 0.25;
  const planned: PlannedStart = {
    apiKey: apiKeys[n % apiKeys.length] as string,
    idempotencyKey: `crash-start-${n}`,
    body: {
      mode: 'boardroom',
      title: `Crash run ${n}${fails ? failMarker : ''}`,
      synths,
      rounds: 1 + Math.floor(random() * 3),
    },
    cancelAsked: false,
  };
  starts.push(planned);
  return planned;
}

function startOf(planned: PlannedStart): CallOptions {
  return { apiKey: planned.apiKey, json: planned.body, idempotencyKey: planned.idempotencyKey };
}

/** Starts and cancels sessions at a random pace until `running()` says the server is about to die. */
async function traffic(server: ChildServer, running: () => boolean): Promise<void> {
  while (running()) {
    const answered = starts.filter((planned) => planned.sessionId !== undefined && !planned.cancelAsked);
    try {
      if (answered.length > 0 && random() < 0.2) {
        const target = answered[Math.floor(random() * answered.length)] as PlannedStart;
        target.cancelAsked = true;
        await (
          await call(server, `/v1/sessions/${target.sessionId}/cancel`, {
            apiKey: target.apiKey,
            method: 'POST',
            json: {},
          })
        ).arrayBuffer();
      } else {
        const planned = planStart();
        const response = await call(server, '/v1/sessions', { ...startOf(planned), method: 'POST' });
        const text = await response.text();
        expect(response.status, text).toBe(202);
        planned.answer = text;
        planned.sessionId = (JSON.parse(text) as { id: string }).id;
      }
    } catch (error) {
      // A request cut off by the kill has no answer; it is retried after the restart.
      if (running()) {
        throw error;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 10 + random() * 40));
  }
}

/** Sends a start again, waiting as long as a `429` says (in simulated seconds) when the key's bucket is spent. */
async function startAgain(server: ChildServer, planned: PlannedStart): Promise<{ response: Response; text: string }> {
  for (;;) {
    const response = await call(server, '/v1/sessions', { ...startOf(planned), method: 'POST' });
    const text = await response.text();
    if (response.status !== 429) {
      return { response, text };
    }
    await new Promise((resolve) =>
      setTimeout(resolve, (Number(response.headers.get('retry-after')) * 1000) / timeScale),
    );
  }
}

interface SessionView {
  id: string;
  status: string;
  title: string;
  estimated_cost_credits: number;
  credits_charged: number;
  credits_refunded: number;
}

async function listAll(server: ChildServer, apiKey: string): Promise<SessionView[]> {
  const sessions: SessionView[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const page = (await (await call(server, `/v1/sessions?limit=100${query}`, { apiKey })).json()) as {
      items: SessionView[];
      next_cursor: string | null;
    };
    sessions.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return sessions;
}

/** Long-polls a session until it is terminal, failing after `limitMs` of real time. */
async function settled(server: ChildServer, planned: PlannedStart, limitMs: number): Promise<SessionView> {
  const deadline = Date.now() + limitMs;
  const id = planned.sessionId as string;
  for (;;) {
    // `wait_ms` is wall-clock time: a session already terminal holds the poll for all of it.
    const session = (await (
      await call(server, `/v1/sessions/${id}?wait_ms=1000`, { apiKey: planned.apiKey })
    ).json()) as SessionView;
    if ((terminal as readonly string[]).includes(session.status)) {
      return session;
    }
    if (Date.now() > deadline) {
      throw new Error(`session ${id} is still ${session.status} (seed ${seed})`);
    }
  }
}

/** Resolves once `condition` holds, checking as deliveries arrive; fails after `limitMs` of real time. */
async function eventually(condition: () => boolean, what: string, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new Error(`${what} did not happen within ${limitMs} ms (seed ${seed})`);
    }
    await once(arrivals, 'delivery', { signal: AbortSignal.timeout(left) }).catch(() => undefined);
  }
}

test('sessions, webhooks and idempotency records survive SIGKILL at random moments', async () => {
  console.log(`crash-restart seed ${seed} (BOARDKIT_CRASH_SEED=${seed} repeats this schedule)`);
  const db = join(folder, 'board.db');
  const start = (): Promise<ChildServer> =>
    startChildServer({ db, apiKeys, timeScale, flags: ['--allow-private-webhook-urls'] });
  const stderr: string[] = [];

  let server = await start();
  // Whatever fails from here, the server that is running is stopped, never left behind the test.
  try {
    for (const apiKey of apiKeys) {
      const subscribed = await call(server, '/v1/webhooks', {
        apiKey,
        method: 'POST',
        json: {
          label: 'Crash receiver',
          url: receiverUrl,
          events: ['session.created', 'session.complete', 'session.failed', 'session.cancelled'],
        },
      });
      expect(subscribed.status).toBe(201);
    }

    for (let crash = 0; crash < crashes; crash += 1) {
      let alive = true;
      // Two clients at once, so that a kill often cuts a request off.
      const driving = Promise.all([traffic(server, () => alive), traffic(server, () => alive)]);
      // A failure is rethrown by the `await` below; until then it must not count as an unhandled rejection.
      driving.catch(() => undefined);
      // The kill falls at a random moment: mid-request, mid-step or mid-delivery.
      await new Promise((resolve) => setTimeout(resolve, 300 + killRandom() * 1_200));
      alive = false;
      await server.kill('SIGKILL');
      await driving;
      stderr.push(server.stderr());
      server = await start();
    }

    // Every start, answered or cut off, retried with its key: one session per key, answers replayed.
    for (const planned of starts) {
      const { response, text } = await startAgain(server, planned);
      expect(response.status, `${planned.idempotencyKey}: ${text} (seed ${seed})`).toBe(202);
      if (planned.answer !== undefined) {
        expect(text).toBe(planned.answer);
        expect(response.headers.get('idempotent-replayed')).toBe('true');
      }
      planned.sessionId = (JSON.parse(text) as { id: string }).id;
    }
    const listed = (await Promise.all(apiKeys.map((apiKey) => listAll(server, apiKey)))).flat();
    expect(listed.map((session) => session.title).sort()).toEqual(starts.map((planned) => planned.body.title).sort());

    // Every session ends by the documented rules.
    const sessions = await Promise.all(starts.map((planned) => settled(server, planned, 60_000)));
    starts.forEach((planned, index) => {
      const { status } = sessions[index] as SessionView;
      const asked = planned.body.title.endsWith(failMarker) ? 'failed' : 'complete';
      expect(planned.cancelAsked ? ['cancelled', asked] : [asked], `${planned.body.title} (seed ${seed})`).toContain(
        status,
      );
    });

    for (const [index, session] of sessions.entries()) {
      const { apiKey } = starts[index] as PlannedStart;
      const text = await (await call(server, `/v1/sessions/${session.id}/events?finite=true`, { apiKey })).text();
      const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
      expect(ids).toEqual(ids.map((_, index) => index + 1));
      const ends = [...text.matchAll(/^event: (session\.(?:complete|failed|cancelled))$/gm)].map((match) => match[1]);
      expect(ends).toEqual([`session.${session.status}`]);
      expect(session.credits_charged + session.credits_refunded).toBe(session.estimated_cost_credits);
    }
    for (const apiKey of apiKeys) {
      const charged = sessions
        .filter((_, index) => starts[index]?.apiKey === apiKey)
        .reduce((sum, session) => sum + session.credits_charged, 0);
      const credits = (await (await call(server, '/credits', { apiKey })).json()) as { balance_credits: number };
      expect(credits.balance_credits).toBe(10_000 - charged);
    }

    // Every due delivery arrives and is accepted at least once; repeats keep their delivery id and body.
    const expected = sessions.flatMap((session) => [
      `session.created ${session.id}`,
      `session.${session.status} ${session.id}`,
    ]);
    const accepted = (): Set<string> =>
      new Set(
        received
          .filter((delivery) => delivery.status === 200)
          .map(
            (delivery) =>
              `${delivery.event} ${(JSON.parse(delivery.rawBody) as { data: { session_id: string } }).data.session_id}`,
          ),
      );
    await eventually(() => expected.every((pair) => accepted().has(pair)), 'every due delivery', 60_000);
    expect([...accepted()].sort()).toEqual([...expected].sort());
    const byDelivery = new Map<string, Received[]>();
    received.forEach((delivery) =>
      byDelivery.set(delivery.deliveryId, [...(byDelivery.get(delivery.deliveryId) ?? []), delivery]),
    );
    for (const repeats of byDelivery.values()) {
      expect(new Set(repeats.map((delivery) => delivery.rawBody)).size).toBe(1);
    }
    const idsPerEvent = new Map<string, Set<string>>();
    for (const delivery of received) {
      const { data } = JSON.parse(delivery.rawBody) as { data: { session_id: string } };
      const pair = `${delivery.event} ${data.session_id}`;
      idsPerEvent.set(pair, (idsPerEvent.get(pair) ?? new Set()).add(delivery.deliveryId));
    }
    expect([...idsPerEvent.values()].every((ids) => ids.size === 1)).toBe(true);
    const acceptedTwice = [...byDelivery.values()].filter(
      (repeats) => repeats.filter((delivery) => delivery.status === 200).length > 1,
    );
    console.log(
      `crash-restart: ${crashes} kills, ${sessions.length} sessions (${terminal.map((status) => `${sessions.filter((s) => s.status === status).length} ${status}`).join(', ')}), ` +
        `${starts.filter((planned) => planned.answer === undefined).length} starts cut off by a kill; ` +
        `${received.length} delivery attempts for ${byDelivery.size} deliveries, ${acceptedTwice.length} accepted again after a kill`,
    );
  } finally {
    await server.kill('SIGTERM');
    stderr.push(server.stderr());
  }
  expect(stderr.join('')).toBe('');
});
