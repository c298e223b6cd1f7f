/**
 * A restart in the middle of things: runs in progress (one with a message taken mid-round), an outcome
 * being written and webhook deliveries waiting to be retried. The server is stopped and started again
 * on the same database, with time going on from where it was; nothing is lost and nothing repeated.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../src/server/core/clock.js';
import { startServer } from '../../src/server/server.js';
import { boardConvenesAfterMs } from '../../src/server/domain/sessions/run-driver.js';
import {
  aWholeRun,
  advanceUntil,
  getJson,
  lineupStart,
  settle,
  startSession,
  startTestServer,
  storedSession,
  waitFor,
  type TestServer,
} from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';

let folder: string;
let receiver: Receiver;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'boardkit-restart-'));
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver.close();
  rmSync(folder, { recursive: true, force: true });
});

function eventIds(text: string): number[] {
  return [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
}

async function streamText(server: TestServer, path: string): Promise<string> {
  const response = await server.request(path);
  expect(response.status).toBe(200);
  return response.text();
}

test('runs, outcomes and deliveries carry on after a restart on the same database', async () => {
  const dbFile = join(folder, 'board.db');
  const before = await startTestServer({ dbFile });
  const created = await before.request('/v1/webhooks', {
    method: 'POST',
    json: { label: 'Restart', url: receiver.url, events: ['session.complete', 'outcomes.ready', 'decision.captured'] },
  });
  const { subscription } = (await created.json()) as { subscription: { id: string } };

  const decided = await startSession(before, lineupStart(1));
  await settle(before, 60_000);

  // Two runs in the middle of round 2; one has taken a message that sends a Synth back.
  const plain = await startSession(before, lineupStart(3));
  const steered = await startSession(before, { ...lineupStart(3), synths: ['cfo', 'skeptic', 'strategist'] });
  advanceUntil(
    before,
    () => storedSession(before, plain).current_round === 2 && storedSession(before, steered).current_round === 2,
  );
  const message = await before.request(`/v1/sessions/${steered}/messages`, {
    method: 'POST',
    json: { content: 'Churn in the pilot came in at 6%.', send_back: ['skeptic'] },
  });
  expect(message.status).toBe(202);
  await message.arrayBuffer();
  const eventsBefore = await streamText(before, `/v1/sessions/${plain}/events?finite=true`);
  const steeredBefore = await streamText(before, `/v1/sessions/${steered}/events?finite=true`);

  // A delivery that fails and waits for its retry.
  receiver.answer(500);
  await (
    await before.request(`/v1/sessions/${decided}/decisions`, {
      method: 'POST',
      json: { decision: 'Go ahead in March.' },
    })
  ).arrayBuffer();
  await waitFor(() => receiver.deliveries.some((delivery) => delivery.body.event === 'decision.captured'));
  await before.server.services.webhooks.dispatcher.idle();
  const firstAttempt = receiver.deliveries.find((delivery) => delivery.body.event === 'decision.captured');

  // An outcome still being written.
  const outcome = await before.request(`/v1/sessions/${decided}/outcomes`, {
    method: 'POST',
    json: { format: 'report' },
  });
  const { id: outcomeId, status: outcomeStatus } = (await outcome.json()) as { id: string; status: string };
  expect(outcomeStatus).toBe('pending');
  const stoppedAt = before.clock.now();
  await before.stop();

  receiver.answer(200);
  const after = await startTestServer({ dbFile, clock: manualClock(stoppedAt) });
  try {
    // The pending outcome is finished when its time comes.
    await settle(after, 5_000);
    const outcomes = await getJson<{ outcomes: Array<{ id: string; status: string }> }>(
      after,
      `/v1/sessions/${decided}/outcomes`,
    );
    expect(outcomes.outcomes).toEqual([expect.objectContaining({ id: outcomeId, status: 'ready' })]);

    // The runs carry on from their pending steps, in small steps so that deliveries keep up.
    await settle(after, aWholeRun, 30_000);
    for (const [id, earlier] of [
      [plain, eventsBefore],
      [steered, steeredBefore],
    ] as const) {
      expect(await getJson<{ status: string; current_round: number }>(after, `/v1/sessions/${id}`)).toMatchObject({
        status: 'complete',
        current_round: 3,
      });
      const all = await streamText(after, `/v1/sessions/${id}/events`);
      const ids = eventIds(all);
      expect(ids).toEqual(ids.map((_, index) => index + 1));
      // What was streamed before the restart is replayed unchanged.
      expect(all.replace('retry: 3000\n', '').startsWith(earlier.replace('retry: 3000\n', ''))).toBe(true);
      expect([...all.matchAll(/"round":(\d),"synthesis_preview"/g)].map((match) => Number(match[1]))).toEqual([
        1, 2, 3,
      ]);
    }
    // The message taken before the restart still sends the skeptic back in round 2.
    const steeredAll = await streamText(after, `/v1/sessions/${steered}/events`);
    expect(steeredAll).toMatch(/"synth":"skeptic","round":2,"content":"You sent me back on/);

    // The failed delivery is retried with the same delivery id and succeeds; nothing is delivered twice.
    await waitFor(
      () => receiver.deliveries.filter((delivery) => delivery.body.event === 'decision.captured').length === 2,
    );
    const decisionAttempts = receiver.deliveries.filter((delivery) => delivery.body.event === 'decision.captured');
    expect(decisionAttempts[1]?.headers['x-service-delivery-id']).toBe(firstAttempt?.headers['x-service-delivery-id']);
    const attempts = await getJson<{ items: Array<{ event: string; status: string }> }>(
      after,
      `/v1/webhooks/${subscription.id}/deliveries?limit=100`,
    );
    expect(
      attempts.items.filter((attempt) => attempt.event === 'decision.captured').map((attempt) => attempt.status),
    ).toEqual(['succeeded', 'retry_scheduled']);
    const completions = receiver.deliveries
      .filter((delivery) => delivery.body.event === 'session.complete')
      .map((delivery) => delivery.body.data['session_id']);
    expect(completions.sort()).toEqual([decided, plain, steered].sort());
    expect(receiver.deliveries.filter((delivery) => delivery.body.event === 'outcomes.ready')).toHaveLength(1);
  } finally {
    await after.stop();
  }
});

test('a session still created when the server stops convenes its board after the restart', async () => {
  const dbFile = join(folder, 'queued.db');
  const before = await startTestServer({ dbFile });
  const id = await startSession(before, lineupStart(1));
  before.clock.advance(boardConvenesAfterMs / 2);
  const stoppedAt = before.clock.now();
  await before.stop();

  const after = await startTestServer({ dbFile, clock: manualClock(stoppedAt) });
  try {
    expect(await getJson(after, `/v1/sessions/${id}`)).toMatchObject({ status: 'created', v4_phase: 'queued' });
    after.clock.advance(boardConvenesAfterMs / 2);
    expect(await getJson(after, `/v1/sessions/${id}`)).toMatchObject({ status: 'running', v4_phase: 'staffing' });
    after.clock.advance(aWholeRun);
    expect(await getJson(after, `/v1/sessions/${id}`)).toMatchObject({ status: 'complete', v4_phase: 'done' });
  } finally {
    await after.stop();
  }
});

test('a start that cannot listen closes its store; a database opened by the caller gets the schema', async () => {
  const running = await startServer({ port: 0 });
  const taken = Number(new URL(running.baseUrl).port);
  // Opened here, so the start must create the tables itself before it gets as far as listening.
  const db = new Database(':memory:');
  try {
    await expect(startServer({ db, port: taken })).rejects.toThrow(/EADDRINUSE/);
    expect(db.open).toBe(false);
  } finally {
    await running.close();
  }
});
