/**
 * `boardkit serve` as users run it: `node bin/boardkit.js serve …` on the built `lib/` (`npm test`
 * builds first), on a free port and a SQLite file.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { serverControl, verifyDelivery } from '../../src/index.js';
import { waitFor } from './harness.js';

let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'boardkit-serve-'));
});

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

interface Running {
  child: ChildProcessWithoutNullStreams;
  baseUrl: string;
  output: string;
  stop(): Promise<{ code: number | null; output: string }>;
}

function serve(...args: string[]): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(packageRoot, 'bin', 'boardkit.js'), 'serve', '--port', '0', ...args], {
      cwd: folder,
    });
    let output = '';
    let errors = '';
    const exited = new Promise<number | null>((done) => child.on('close', done));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /^ {2}(http:\/\/127\.0\.0\.1:\d+) /m.exec(output);
      if (match?.[1] !== undefined && output.includes('Ctrl-C')) {
        resolve({
          child,
          baseUrl: match[1],
          output,
          async stop() {
            child.kill('SIGINT');
            const code = await exited;
            return { code, output };
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${errors}`)));
  });
}

function run(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(packageRoot, 'bin', 'boardkit.js'), 'serve', ...args], { cwd: folder });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

async function status(url: string, key?: string): Promise<number> {
  const response = await fetch(url, key === undefined ? {} : { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  return response.status;
}

describe('boardkit serve', () => {
  test('a fresh store without --api-key gets a test key; a restart keeps it and prints none', async () => {
    const db = join(folder, 'fresh.db');
    const first = await serve('--db', db);
    expect(first.output).toContain(`${first.baseUrl}/v1/sessions is the sessions collection`);
    const key = /test key: (sk_test_[A-Za-z0-9]+)/.exec(first.output)?.[1] ?? '';
    expect(key).not.toBe('');
    expect(await status(`${first.baseUrl}/v1/health`)).toBe(200);
    expect(await status(`${first.baseUrl}/v1/sessions`, key)).toBe(200);
    const stopped = await first.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.output).toContain('Server stopped.');

    const second = await serve('--db', db);
    expect(second.output).not.toContain('test key');
    expect(await status(`${second.baseUrl}/v1/sessions`, key)).toBe(200);
    await second.stop();
  });

  test('--api-key provisions each key in its own workspace; --tier sets their tier', async () => {
    const live = 'sk_live_servetest00000000000001';
    const test2 = 'sk_test_servetest00000000000002';
    const server = await serve('--db', ':memory:', '--api-key', live, '--api-key', test2);
    expect(server.output).not.toContain('sk_live_');
    const mine = await fetch(`${server.baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${live}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'boardroom', synths: ['cfo', 'skeptic'], rounds: 1 }),
    });
    const { id } = (await mine.json()) as { id: string };
    expect(await status(`${server.baseUrl}/v1/sessions/${id}`, live)).toBe(200);
    expect(await status(`${server.baseUrl}/v1/sessions/${id}`, test2)).toBe(404);
    await server.stop();

    const pro = await serve('--db', ':memory:', '--api-key', live, '--tier', 'pro');
    expect(await status(`${pro.baseUrl}/v1/sessions`, live)).toBe(403);
    await pro.stop();
  });

  test('the published key forms start the server and authenticate: sk_<word>_test_ and <two letters>_live_', async () => {
    // The service's pages publish REST keys as sk_<brand>_test_… and MCP keys as <two letters>_live_….
    const branded = 'sk_synth_test_0123456789abcdefABCDEF01';
    const short = 'sy_live_0123456789abcdefABCDEF02';
    const server = await serve('--db', ':memory:', '--api-key', branded, '--api-key', short);
    const started = await fetch(`${server.baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${branded}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'boardroom', synths: ['cfo', 'skeptic'], rounds: 1 }),
    });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    const read = await fetch(`${server.baseUrl}/v1/sessions/${id}`, {
      headers: { authorization: `Bearer ${branded}` },
    });
    expect(read.status).toBe(200);
    // The session records the redacted key in the branded form, which the contract's ApiKeyHint accepts.
    expect(((await read.json()) as { key_hint: string }).key_hint).toBe('sk_synth_test_...EF01');
    expect(await status(`${server.baseUrl}/v1/sessions`, short)).toBe(200);
    expect(await status(`${server.baseUrl}/v1/sessions`, 'sk_synth_test_0123456789abcdefABCDEF99')).toBe(401);
    await server.stop();
  });

  test('--time-scale speeds up simulated time: a run finishes in a fraction of its simulated length', async () => {
    const key = 'sk_test_servetest00000000000003';
    const server = await serve('--db', ':memory:', '--api-key', key, '--time-scale', '600');
    const started = await fetch(`${server.baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'boardroom', synths: ['cfo', 'skeptic'], rounds: 1 }),
    });
    const { id } = (await started.json()) as { id: string };
    let session = { status: 'running', v4_phase: '' };
    // A long poll waits in wall-clock time whatever the scale; the run's minutes of simulated time pass in
    // well under the one second each poll may hold.
    for (let polls = 0; session.status !== 'complete' && polls < 100; polls += 1) {
      const response = await fetch(`${server.baseUrl}/v1/sessions/${id}?wait_ms=1000`, {
        headers: { authorization: `Bearer ${key}` },
      });
      session = (await response.json()) as typeof session;
    }
    expect(session).toMatchObject({ status: 'complete', v4_phase: 'done' });
    await server.stop();
  });

  test('--client-controls serves /_controls/v1, which serverControl drives; without it the plane is a 404', async () => {
    const key = 'sk_test_servecontrols000000001';
    const server = await serve('--db', ':memory:', '--api-key', key, '--client-controls');
    expect(server.output).toContain(`Client controls: ${server.baseUrl}/_controls/v1`);
    const control = serverControl(server.baseUrl);
    await control.failNext('listSessions', { status: 500 });
    expect(await status(`${server.baseUrl}/v1/sessions`, key)).toBe(500);
    expect(await status(`${server.baseUrl}/v1/sessions`, key)).toBe(200);
    expect((await control.journal({ operation: 'listSessions' })).map((entry) => entry.status)).toEqual([500, 200]);
    await server.stop();

    const plain = await serve('--db', ':memory:', '--api-key', key);
    expect((await fetch(`${plain.baseUrl}/_controls/v1/journal`)).status).toBe(404);
    await plain.stop();
  });

  test('--seed loads the example seed file: its keys open their workspaces, its sessions are in their states', async () => {
    const server = await serve(
      '--db',
      ':memory:',
      '--seed',
      join(packageRoot, 'examples', 'seed.yaml'),
      '--client-controls',
    );
    expect(server.output).toContain('Seed data from');
    expect(server.output).toContain('3 workspace(s), tiers ultra, pro, enterprise');
    // No test key is made up: the seed's keys are the way in.
    expect(server.output).not.toContain('Created a workspace');
    const listed = (await (
      await fetch(`${server.baseUrl}/v1/sessions`, { headers: { authorization: 'Bearer sk_test_frontendTeamKey0001' } })
    ).json()) as { items: Array<{ status: string }> };
    expect(listed.items.map((session) => session.status)).toEqual(
      expect.arrayContaining(['complete', 'failed', 'cancelled']),
    );
    await serverControl(server.baseUrl).reset({ data: true });
    expect(await status(`${server.baseUrl}/v1/sessions`, 'sk_test_frontendTeamKey0001')).toBe(200);
    await server.stop();
  });

  test('--credits sets the starting balance of each provisioned workspace, so a 402 can be reached by hand', async () => {
    const key = 'sk_test_servetest00000000000004';
    const server = await serve('--db', ':memory:', '--api-key', key, '--credits', '30');
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const credits = (await (await fetch(`${server.baseUrl}/credits`, { headers })).json()) as {
      balance_credits: number;
    };
    expect(credits.balance_credits).toBe(30);
    const refused = await fetch(`${server.baseUrl}/v1/sessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ mode: 'boardroom', synths: ['cfo', 'skeptic'], rounds: 4 }),
    });
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ session_estimate_credits: 40, balance_credits: 30 });
    await server.stop();
  });

  test('bad options are refused with a message and exit code 2', async () => {
    const badKey = await run('--db', ':memory:', '--api-key', 'not-a-key', '--port', '0');
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toMatch(/is not an API key/);
    const badScale = await run('--time-scale', '0');
    expect(badScale.code).not.toBe(0);
    expect(badScale.stderr).toMatch(/positive number/);
    const badCredits = await run('--credits', '1.5');
    expect(badCredits.code).not.toBe(0);
    expect(badCredits.stderr).toMatch(/whole number of credits/);
    const badKept = await run('--kept-sessions', '-1');
    expect(badKept.code).not.toBe(0);
    expect(badKept.stderr).toMatch(/whole number of sessions/);
    const badTier = await run('--tier', 'platinum');
    expect(badTier.code).not.toBe(0);
    expect(badTier.stderr).toMatch(/platinum/);
  });

  test('--time-scale 1000 --forward-webhooks: a receiver that checks timestamps against its own clock accepts every delivery', async () => {
    const secret = 'whsec_forwardedfromserve000000001';
    const verdicts: Array<{ event: string; verdict: ReturnType<typeof verifyDelivery> }> = [];
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const rawBody = Buffer.concat(chunks);
        const verdict = verifyDelivery({ secret, rawBody, headers: request.headers });
        verdicts.push({ event: String(request.headers['x-service-event']), verdict });
        response.writeHead(verdict.ok ? 204 : verdict.status).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const key = 'sk_test_forwardfromserve0001';
    const server = await serve(
      '--db',
      ':memory:',
      '--api-key',
      key,
      '--time-scale',
      '1000',
      '--forward-webhooks',
      url,
      '--forward-secret',
      secret,
    );
    try {
      expect(server.output).toContain(`Forwarding every webhook event to ${url}, signed with ${secret}`);
      const started = await fetch(`${server.baseUrl}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'boardroom', title: 'Move the launch', synths: ['cfo', 'skeptic'], rounds: 1 }),
      });
      expect(started.status).toBe(202);
      await waitFor(() => verdicts.some((one) => one.event === 'session.complete'), 30_000);
      expect(verdicts.map((one) => one.verdict)).toEqual(verdicts.map(() => ({ ok: true })));
    } finally {
      await server.stop();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  test('--forward-webhooks refuses a URL that is not on this machine', async () => {
    const refused = await run('--db', ':memory:', '--port', '0', '--forward-webhooks', 'http://192.0.2.1/hooks');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/forwarding goes to a loopback address only/);
  });
});
