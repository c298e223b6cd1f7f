/**
 * The hand-written guides in docs/ stay true: their links lead somewhere, and the numbers and rules they
 * repeat agree with the contract and the breaking-change guard. Their TypeScript examples are compiled
 * against the packed kit, in every module setting, by test/package/installed.test.ts.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { packageRoot } from '../../src/contract/paths.js';
import { valueAt } from '../../src/contract/pointer.js';
import { breakingRules, otherRules, policyRules } from '../../src/docs/breaking/index.js';

const contract = loadContract();
const docs = join(packageRoot, 'docs');
const read = (path: string): Promise<string> => readFile(join(packageRoot, path), 'utf8');

describe('links', () => {
  test('every relative link of the docs and the README leads to a file', async () => {
    const pages = [
      ...(await readdir(docs)).filter((name) => name.endsWith('.md')).map((name) => join('docs', name)),
      'README.md',
      join('openapi', 'CHANGELOG.md'),
    ];
    const broken: string[] = [];
    for (const page of pages) {
      for (const [, target] of (await read(page)).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (target !== undefined && !/^[a-z]+:/.test(target) && !existsSync(join(packageRoot, dirname(page), target))) {
          broken.push(`${page} → ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('limits.md', () => {
  const limits = valueAt(contract, '#/x-limits') as Record<string, any>;
  const buckets = valueAt(contract, '#/x-rate-limit-buckets') as {
    buckets: Array<{ name: string; ultra_per_minute: number }>;
    tier_multipliers: Record<string, unknown>;
  };
  const number = (value: number): string => value.toLocaleString('en-US');

  test("states the contract's rate limits", async () => {
    const page = await read('docs/limits.md');
    for (const bucket of buckets.buckets) {
      expect(page).toContain(`| \`${bucket.name}\` | ${number(bucket.ultra_per_minute)} |`);
    }
    const { free, pro, max, ultra } = buckets.tier_multipliers as Record<string, number>;
    expect(page).toContain(`Free ${free}, Pro ${pro}, Max ${max}, Ultra ${ultra}`);
  });

  test("states the contract's other limits", async () => {
    const page = await read('docs/limits.md');
    const rows = [
      `| Synths per session | ${limits['synths_per_session'].min} to ${limits['synths_per_session'].max}, from a library of ${limits['synths_per_session'].library_size} |`,
      `| Idempotency window | ${limits['idempotency_window_hours']} hours |`,
      `| Old key valid after rotation | ${limits['old_key_validity_after_rotation_hours']} hours |`,
      `| Webhook replay tolerance | ${limits['webhook_replay_tolerance_seconds']} seconds |`,
      `| Webhook pause after consecutive failed deliveries | ${limits['webhook_pause_after_consecutive_failures']} |`,
      `| Webhook delivery attempts kept for inspection | ${limits['webhook_deliveries_retained_per_subscription']} per subscription |`,
      `| Page size (\`limit\`) | default ${limits['page_limit'].default}, maximum ${limits['page_limit'].max} |`,
      `| Request body | ${number(limits['request_body_max_bytes'].value)} bytes (1 MiB) |`,
      `| Request body nesting | at most ${limits['request_body_max_depth'].value} levels of arrays and objects |`,
      `| Share page password guesses | ${limits['share_password_guesses'].per_link} wrong guesses per link in ${limits['share_password_guesses'].window_minutes} minutes |`,
      `| Long-poll \`wait_ms\` | at most ${number(limits['wait_ms_max'].value)} ms |`,
      `| Webhook delivery attempt timeout | ${String(valueAt(contract, '#/x-webhook-delivery/attempt_timeout_seconds/value'))} seconds |`,
      `| Webhook subscriptions | ${limits['webhook_subscriptions_per_workspace'].value} per workspace |`,
      `| Request headers | must arrive within ${limits['request_headers_timeout_seconds'].value} seconds |`,
      `| Whole request, headers and body | must arrive within ${limits['request_timeout_seconds'].value} seconds |`,
      `| Idle kept-alive connection | closed after ${limits['idle_connection_timeout_seconds'].value} seconds without a request |`,
      `| Connections | at most ${number(limits['connections_max'].value)} at once |`,
      `| Event stream reader behind | at most ${number(limits['event_stream_buffer_max_bytes'].value)} bytes, for at most ${limits['event_stream_stall_seconds'].value} seconds |`,
    ];
    expect(rows.filter((row) => !page.includes(row))).toEqual([]);
  });
});

describe('versioning.md', () => {
  test('lists every rule of the breaking-change guard with its reason', async () => {
    const page = await read('docs/versioning.md');
    expect(
      Object.entries(breakingRules).filter(([rule, reason]) => !page.includes(`| \`${rule}\` | ${reason} |`)),
    ).toEqual([]);
  });

  test('lists every other rule of the diff with its class, and the rules of the deprecation policy', async () => {
    const page = await read('docs/versioning.md');
    expect(
      Object.entries(otherRules).filter(
        ([rule, { class: kind, means }]) => !page.includes(`| \`${rule}\` | ${kind} | ${means} |`),
      ),
    ).toEqual([]);
    expect(Object.entries(policyRules).filter(([rule, text]) => !page.includes(`| \`${rule}\` | ${text} |`))).toEqual(
      [],
    );
  });

  test("lists the contract's date versions", async () => {
    const page = await read('docs/versioning.md');
    const versions = valueAt(contract, '#/x-api-versions/supported') as Array<{ version: string }>;
    expect(versions.length).toBeGreaterThan(0);
    expect(versions.filter(({ version }) => !page.includes(`| \`${version}\` |`))).toEqual([]);
  });

  test('states both published deprecation periods', async () => {
    const page = await read('docs/versioning.md');
    expect(page).toContain('at least **6 months**');
    expect(page).toContain('**90-day** deprecation notice');
  });
});
