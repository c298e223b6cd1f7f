/**
 * What a held-open connection costs the server: `count` event streams, then as many long polls, against
 * a server of its own at real speed, with its RSS read before and after each.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, lineup, residentMiB, serve } from './child-server.mjs';

/** Opens a request that stays open (an event stream); resolves once its head is sent. */
function holdOpen(baseUrl, key, path, held) {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${baseUrl}${path}`,
      { headers: { authorization: `Bearer ${key}` }, agent: false },
      (response) => {
        response.resume();
        resolve();
      },
    );
    request.on('error', reject);
    request.end();
    held.push(request);
  });
}

/** A long poll sends its head only when it answers: it counts as open once its request is written. */
function pollOpen(baseUrl, key, path, held) {
  return new Promise((resolve) => {
    const request = httpRequest(
      `${baseUrl}${path}`,
      { headers: { authorization: `Bearer ${key}` }, agent: false },
      (response) => response.resume(),
    );
    request.on('error', () => undefined);
    request.on('finish', resolve);
    request.end();
    held.push(request);
  });
}

/** The RSS a held-open event stream and long poll each cost the server, at real speed. */
export async function connectionCost(count) {
  const folder = mkdtempSync(join(tmpdir(), 'boardkit-soak-connections-'));
  const key = 'sk_test_soakconnections000000001';
  const server = await serve(folder, [key], 1);
  const held = [];
  try {
    // A long run, watched by the streams; a cancelled session, whose long polls wait their full 60 s.
    const watched = await (
      await call(server.baseUrl, key, '/v1/sessions', {
        method: 'POST',
        json: { ...lineup('Watched', 10), synths: ['cfo', 'skeptic', 'strategist'] },
      })
    ).json();
    const cancelled = await (
      await call(server.baseUrl, key, '/v1/sessions', { method: 'POST', json: lineup('Polled', 1) })
    ).json();
    await (
      await call(server.baseUrl, key, `/v1/sessions/${cancelled.id}/cancel`, { method: 'POST', json: {} })
    ).arrayBuffer();
    await (await call(server.baseUrl, key, `/v1/sessions/${watched.id}`)).arrayBuffer();
    const base = residentMiB(server.pid);
    for (let n = 0; n < count; n += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, count - n) }, () =>
          holdOpen(server.baseUrl, key, `/v1/sessions/${watched.id}/events`, held),
        ),
      );
    }
    const withStreams = residentMiB(server.pid);
    for (let n = 0; n < count; n += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, count - n) }, () =>
          pollOpen(server.baseUrl, key, `/v1/sessions/${cancelled.id}?wait_ms=60000`, held),
        ),
      );
    }
    // The last requests written need a moment to be read by the server before its memory is read.
    await new Promise((wake) => setTimeout(wake, 2_000));
    const withPolls = residentMiB(server.pid);
    return {
      base,
      withStreams,
      withPolls,
      perStreamKiB: ((withStreams - base) * 1024) / count,
      perPollKiB: ((withPolls - withStreams) * 1024) / count,
    };
  } finally {
    held.forEach((request) => request.destroy());
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}
