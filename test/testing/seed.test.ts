/**
 * Seed data (docs/testing.md "Seed data") over real HTTP: the example file loads workspaces with their
 * keys, tiers and credits and sessions in their states; a data reset returns to it; a seed that does not
 * fit its schema is refused with the member that is wrong, by `startServer` and by `boardkit serve`
 * (exit 2).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startServer, type SeedData } from '../../src/index.js';
import { TestControl } from '../../conformance/harness/test-control.js';
import { packageRoot } from '../../src/contract/paths.js';
import { startServer as startReferenceServer } from '../../src/server/server.js';

const example = join(packageRoot, 'examples', 'seed.yaml');

describe('seed data', () => {
  test('the example file loads keys, tiers, credits and sessions in their states', async () => {
    const server = await startServer({ seed: example, controls: true });
    try {
      const [key, proKey, emptyKey] = server.apiKeys;
      const get = async (path: string, secret = key) =>
        (await (
          await fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${secret}` } })
        ).json()) as Record<string, unknown>;
      expect(server.apiKeys).toEqual([
        'sk_test_frontendTeamKey0001',
        'sk_test_proTierKey00000001',
        'sk_test_emptyPoolKey000001',
      ]);
      const sessions = (await get('/v1/sessions')).items as Array<{ id: string; title: string; status: string }>;
      expect(Object.fromEntries(sessions.map((session) => [session.title, session.status]))).toEqual({
        'EU launch of the Pro plan': 'complete',
        'Move support to follow-the-sun': 'failed',
        'Rename the product': 'cancelled',
        'Hire a second designer': expect.stringMatching(/^(created|running)$/),
      });
      const complete = sessions.find((session) => session.status === 'complete');
      expect(await get(`/v1/sessions/${complete?.id ?? ''}/outcomes`)).toMatchObject({
        memo: { verdict: 'Proceed with the EU launch in Q2, gated on a data-residency review.', confidence_0_100: 72 },
      });
      const credits = await get('/credits');
      expect(credits.tier).toBe('ultra');
      // The pool started at 2,500; the sessions were charged to it, and the ones that stopped refunded.
      expect(credits.balance_credits).toBeLessThan(2_500);
      expect(await get('/credits', proKey)).toMatchObject({
        status: 403,
        type: expect.stringMatching(/tier-required$/),
      });
      // A workspace's second key opens the same pool.
      expect(await get('/credits', emptyKey)).toMatchObject({ tier: 'enterprise', balance_credits: 0 });
      expect(await get('/credits', 'sk_test_emptyPoolKey000002')).toMatchObject({ balance_credits: 0 });

      await server.control.completeSession(sessions.find((s) => s.title === 'Hire a second designer')?.id ?? '', {
        verdict: 'Hire in the autumn.',
      });
      await server.control.reset({ data: true });
      const again = (await get('/v1/sessions')).items as Array<{ title: string; status: string }>;
      expect(again.find((session) => session.title === 'Hire a second designer')?.status).not.toBe('complete');
      expect((await get('/credits')).balance_credits).toBe(credits.balance_credits);
      expect(server.violations()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  test("the conformance control plane takes the first two seeded workspaces' keys as workspaces A and B", async () => {
    const server = await startReferenceServer({ seed: example, testControl: true });
    try {
      const [keyA, keyB] = ['sk_test_frontendTeamKey0001', 'sk_test_proTierKey00000001'];
      const read = (path: string, secret: string) =>
        fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${secret}` } });
      const { items } = (await (await read('/v1/sessions', keyA)).json()) as { items: Array<{ id: string }> };
      const path = `/v1/sessions/${items[0]?.id ?? ''}`;
      expect((await read(path, keyB)).status).toBe(403);
      // The fault answers workspace B's read of a session as if workspace A had asked.
      await new TestControl(server.baseUrl, '/_test').setFaults(['leak-other-workspace']);
      expect((await read(path, keyB)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  test('a seed object that does not fit is refused with the member that is wrong', async () => {
    const wrongTier = { workspaces: [{ api_keys: ['sk_test_abcdefgh1234'], tier: 'gold' }] } as unknown as SeedData;
    await expect(startServer({ seed: wrongTier })).rejects.toThrow(/\/workspaces\/0\/tier/);
    const noVerdict = {
      workspaces: [
        {
          api_keys: ['sk_test_abcdefgh1234'],
          sessions: [{ start: { mode: 'boardroom', synths: ['cfo', 'cto'], rounds: 1 }, state: 'complete' }],
        },
      ],
    } as SeedData;
    await expect(startServer({ seed: noVerdict })).rejects.toThrow(/\/workspaces\/0\/sessions\/0\/memo is required/);
    const overConfident = {
      workspaces: [
        {
          api_keys: ['sk_test_abcdefgh1234'],
          sessions: [
            {
              start: { mode: 'boardroom', synths: ['cfo', 'cto'], rounds: 1 },
              state: 'complete',
              memo: { verdict: 'Go.', confidence_0_100: 140 },
            },
          ],
        },
      ],
    } as SeedData;
    await expect(startServer({ seed: overConfident })).rejects.toThrow(
      /\/workspaces\/0\/sessions\/0\/memo\/confidence_0_100 must be <= 100/,
    );
    const unknownSynth = {
      workspaces: [
        {
          api_keys: ['sk_test_abcdefgh1234'],
          sessions: [{ start: { mode: 'boardroom', synths: ['cfo', 'nobody'], rounds: 1 } }],
        },
      ],
    } as SeedData;
    await expect(startServer({ seed: unknownSynth })).rejects.toThrow(/\/workspaces\/0\/sessions\/0\/start\/synths/);
  });

  test('boardkit serve --seed exits 2 naming the member of a file that does not fit', () => {
    const folder = mkdtempSync(join(tmpdir(), 'boardkit-seed-'));
    const file = join(folder, 'seed.json');
    writeFileSync(file, JSON.stringify({ workspaces: [{ api_keys: ['not-a-key'] }] }));
    const run = spawnSync(
      process.execPath,
      [join(packageRoot, 'bin', 'boardkit.js'), 'serve', '--port', '0', '--db', ':memory:', '--seed', file],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`seed file ${file}: /workspaces/0/api_keys/0 must match pattern`);
  });
});
