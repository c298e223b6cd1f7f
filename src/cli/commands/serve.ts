/**
 * `boardkit serve`: the reference server (src/server) in the foreground until Ctrl-C, on a SQLite store.
 * It prints the `{base_url}` the contract's paths hang from and, on a fresh store started without
 * `--api-key`, the test key it created.
 * @module
 */
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { startingCredits } from '../../server/domain/provisioning.js';
import { defaultKeptSessions } from '../../server/store/session-answers.js';
import { tiers } from '../../server/store/workspaces.js';
import type { Tier } from '../../server/ports/records.js';
import type { EnvelopeForm, RetryScheduleName } from '../../server/server.js';
import { runUntilStopped } from '../serving.js';

interface ServeOptions {
  port: number;
  host: string;
  db: string;
  apiKey: string[];
  tier: Tier;
  credits: number;
  keptSessions: number;
  timeScale: number;
  allowPrivateWebhookUrls: boolean;
  allowLoopbackWebhooks: boolean;
  webhookRetries: RetryScheduleName;
  webhookEnvelope: EnvelopeForm;
  testControl: boolean;
  clientControls: boolean;
  seed?: string;
  legacyWebhook: string[];
  forwardWebhooks?: string;
  forwardSecret?: string;
}

/** A TCP port; `0` picks a free one (the address printed is the one bound). */
function parseListenPort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) {
    throw new InvalidArgumentError('expected a port number from 0 to 65535');
  }
  return port;
}

function parseTimeScale(value: string): number {
  const scale = Number(value);
  if (!Number.isFinite(scale) || scale <= 0) {
    throw new InvalidArgumentError('expected a positive number');
  }
  return scale;
}

/** A starting balance: a whole number of credits from 0 (`0` makes `402 insufficient-credits` reachable at once). */
function parseCredits(value: string): number {
  const credits = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(credits)) {
    throw new InvalidArgumentError('expected a whole number of credits from 0');
  }
  return credits;
}

/** A count of sessions to keep in memory: a whole number from 0. */
function parseKeptSessions(value: string): number {
  const count = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(count)) {
    throw new InvalidArgumentError('expected a whole number of sessions from 0');
  }
  return count;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function serveCommand(): Command {
  return new Command('serve')
    .description('run the reference server of the API on a SQLite store')
    .option('--port <port>', 'port to listen on (0 picks a free one)', parseListenPort, 8080)
    .option(
      '--host <host>',
      'address to bind (keep the loopback default unless others must reach the server)',
      '127.0.0.1',
    )
    .option('--db <file>', 'SQLite database file, or :memory:', join('.boardkit', 'board.db'))
    .option(
      '--api-key <key>',
      'provision this key in its own workspace (repeatable; a prefix naming the environment: sk_test_…, sk_live_…, sk_<word>_test_…)',
      collect,
      [],
    )
    .addOption(new Option('--tier <tier>', 'tier of the provisioned workspaces').choices([...tiers]).default('ultra'))
    .option(
      '--credits <n>',
      'starting credit balance of each workspace this start provisions',
      parseCredits,
      startingCredits,
    )
    .option(
      '--kept-sessions <n>',
      'sessions kept in memory as answers for reads and lists (about 1.5 KB each; 0 reads every one from the store)',
      parseKeptSessions,
      defaultKeptSessions,
    )
    .option(
      '--time-scale <n>',
      'run simulated time n times faster (debates, retries, rate-limit and 24 h windows)',
      parseTimeScale,
      1,
    )
    .option(
      '--allow-private-webhook-urls',
      'deliver webhooks to loopback and private addresses (local testing only)',
      false,
    )
    .option(
      '--allow-loopback-webhooks',
      'deliver webhooks to loopback addresses, other private ones still refused (local testing only)',
      false,
    )
    .addOption(
      new Option(
        '--webhook-retries <schedule>',
        "the seed's retry schedule of webhook deliveries: 1, 5, 15, 60 min, or with 240 min",
      )
        .choices(['four-waits', 'five-waits'] satisfies RetryScheduleName[])
        .default('four-waits'),
    )
    .addOption(
      new Option(
        '--webhook-envelope <form>',
        "envelope of the webhook subscriptions that choose none (seed, or published: the service's webhooks page)",
      )
        .choices(['seed', 'published'] satisfies EnvelopeForm[])
        .default('seed'),
    )
    .option(
      '--test-control',
      'serve the test-only clock control and fault switches under /_test (never in production)',
      false,
    )
    .option(
      '--client-controls',
      'serve the controls for client teams under /_controls/v1 (request journal, queued faults, session states, clock, reset)',
      false,
    )
    .option(
      '--seed <file>',
      'load workspaces (keys, tier, credits) and sessions in a state from a JSON or YAML file at start (schema: schemas/seed.schema.json; docs/testing.md "Seed data")',
    )
    .option(
      '--legacy-webhook <[key=]url>',
      'deprecated per-key webhook URL for an --api-key (repeatable; the bare URL form needs exactly one key)',
      collect,
      [],
    )
    .option(
      '--forward-webhooks <url>',
      'also deliver every event of every workspace to this local URL, signed (like stripe listen --forward-to)',
    )
    .option('--forward-secret <whsec>', 'the signing secret of forwarded deliveries (a new one, printed, by default)')
    .action(async (options: ServeOptions) => {
      // Loaded on use: the server compiles the whole contract for validation.
      const { startServer } = await import('../../server/server.js');
      const { parseLegacyWebhookFlags } = await import('../../server/domain/legacy-webhooks.js');
      const server = await startServer({
        host: options.host,
        port: options.port,
        db: options.db,
        apiKeys: options.apiKey,
        tier: options.tier,
        startingCredits: options.credits,
        keptSessions: options.keptSessions,
        timeScale: options.timeScale,
        allowPrivateWebhookUrls: options.allowPrivateWebhookUrls,
        allowLoopbackWebhookUrls: options.allowLoopbackWebhooks,
        webhookRetries: options.webhookRetries,
        webhookEnvelope: options.webhookEnvelope,
        testControl: options.testControl,
        clientControls: options.clientControls,
        ...(options.seed === undefined ? {} : { seed: options.seed }),
        legacyWebhooks: parseLegacyWebhookFlags(options.legacyWebhook, options.apiKey),
        ...(options.forwardWebhooks === undefined
          ? {}
          : { forwardWebhooks: { url: options.forwardWebhooks, secret: options.forwardSecret } }),
      });
      const lines = [
        'Decision-Board reference server, listening on',
        '',
        `  ${server.baseUrl}    the {base_url}: ${server.baseUrl}/v1/sessions is the sessions collection`,
        '',
        `Store: ${options.db}${options.timeScale === 1 ? '' : `; simulated time runs ${options.timeScale} times faster`}`,
      ];
      if (options.testControl) {
        lines.push(`Test control: ${server.baseUrl}/_test (clock and fault switches; for testing only)`);
      }
      if (options.clientControls) {
        lines.push(`Client controls: ${server.baseUrl}/_controls/v1 (request journal, queued faults, session states)`);
      }
      // Only a key the server made up is printed; keys given with --api-key are the caller's own.
      if (options.apiKey.length === 0) {
        for (const key of server.provisioned) {
          lines.push(
            `Created a workspace (tier ${key.workspace.tier}, ${options.credits} credits) with the test key: ${key.secret}`,
          );
        }
      }
      if (options.seed !== undefined) {
        lines.push(
          `Seed data from ${options.seed}: ${server.seeded.length} workspace(s), tiers ${server.seeded.map((key) => key.workspace.tier).join(', ')}`,
        );
      }
      // A legacy webhook secret is shown when it is set, once; the store keeps it for later starts.
      for (const hook of server.legacyWebhooks) {
        const secret = hook.secretIsNew
          ? `signed with ${hook.secret} (shown once)`
          : 'signed with the secret shown when it was set';
        lines.push(`Legacy webhook of ${hook.keyHint}: ${hook.url}, ${secret}`);
      }
      if (server.forwarding !== undefined) {
        lines.push(
          `Forwarding every webhook event to ${server.forwarding.url}, signed with ${server.forwarding.secret}`,
        );
      }
      lines.push('Ctrl-C stops the server.', '');
      process.stdout.write(lines.join('\n'));
      await runUntilStopped({ exited: new Promise(() => undefined), stop: () => server.close() });
      process.stdout.write('Server stopped.\n');
    });
}
