/**
 * `boardkit serve`: the reference server (src/server) in the foreground until Ctrl-C, on a SQLite store.
 * It prints the `{base_url}` the contract's paths hang from and, on a fresh store started without
 * `--api-key`, the test key it created.
 * @module
 */
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { tiers, type Tier } from '../../server/store/workspaces.js';
import { runUntilStopped } from '../serving.js';

interface ServeOptions {
  port: number;
  host: string;
  db: string;
  apiKey: string[];
  tier: Tier;
  timeScale: number;
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

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function serveCommand(): Command {
  return new Command('serve')
    .description('run the reference server of the API on a SQLite store')
    .option('--port <port>', 'port to listen on (0 picks a free one)', parseListenPort, 8080)
    .option('--host <host>', 'address to bind (keep the loopback default unless others must reach the server)', '127.0.0.1')
    .option('--db <file>', 'SQLite database file, or :memory:', join('.boardkit', 'board.db'))
    .option('--api-key <key>', 'provision this key in its own workspace (repeatable; sk_test_… or sk_live_…)', collect, [])
    .addOption(new Option('--tier <tier>', 'tier of the provisioned workspaces').choices([...tiers]).default('ultra'))
    .option('--time-scale <n>', 'run simulated time n times faster (debates, retries, rate-limit and 24 h windows)', parseTimeScale, 1)
    .action(async (options: ServeOptions) => {
      // Loaded on use: the server compiles the whole contract for validation.
      const { startServer } = await import('../../server/server.js');
      const { startingCredits } = await import('../../server/provisioning.js');
      const server = await startServer({
        host: options.host,
        port: options.port,
        db: options.db,
        apiKeys: options.apiKey,
        tier: options.tier,
        timeScale: options.timeScale,
      });
      const lines = [
        'Decision-Board reference server, listening on',
        '',
        `  ${server.baseUrl}    the {base_url}: ${server.baseUrl}/v1/sessions is the sessions collection`,
        '',
        `Store: ${options.db}${options.timeScale === 1 ? '' : `; simulated time runs ${options.timeScale} times faster`}`,
      ];
      // Only a key the server made up is printed; keys given with --api-key are the caller's own.
      if (options.apiKey.length === 0) {
        for (const key of server.provisioned) {
          lines.push(`Created a workspace (tier ${key.workspace.tier}, ${startingCredits} credits) with the test key: ${key.secret}`);
        }
      }
      lines.push('Ctrl-C stops the server.', '');
      process.stdout.write(lines.join('\n'));
      await runUntilStopped({ exited: new Promise(() => undefined), stop: () => server.close() });
      process.stdout.write('Server stopped.\n');
    });
}
