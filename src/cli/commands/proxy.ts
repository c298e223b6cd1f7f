/**
 * `boardkit proxy`: Prism's validation proxy (src/mock/proxy.ts) in front of an implementation, in the
 * foreground until Ctrl-C, reporting the contract violations of the traffic that passes through it.
 * @module
 */
import { Command } from 'commander';
import { exitCodes } from '../exit-codes.js';
import { parsePort, runUntilStopped } from '../serving.js';

interface ProxyOptions {
  upstream: string;
  port: number;
  host: string;
  errors?: boolean;
}

export function proxyCommand(): Command {
  return new Command('proxy')
    .description('validate the traffic to an implementation against the contract (Prism validation proxy)')
    .requiredOption('--upstream <url>', "the implementation's base URL, its {base_url} (e.g. http://127.0.0.1:8080)")
    .option('--port <port>', 'port to listen on', parsePort, 4011)
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option(
      '--errors',
      'answer invalid requests with a problem instead of forwarding them, and turn invalid responses into 500 problems',
    )
    .action(async (options: ProxyOptions) => {
      const { parseUpstream, startProxy } = await import('../../mock/proxy.js');
      const upstream = parseUpstream(options.upstream);
      const proxy = await startProxy({
        upstream,
        host: options.host,
        port: options.port,
        errors: options.errors === true,
        output: 'inherit',
      });
      process.stdout.write(
        [
          `Validation proxy listening on ${proxy.baseUrl}, forwarding to ${upstream}.`,
          'Send your requests to the proxy. Each contract violation is logged as "Violation: …" under the',
          '"Forwarding" line of its request, and listed in the response header sl-violations.',
          'Ctrl-C stops the proxy.',
          '',
        ].join('\n'),
      );
      const bySignal = await runUntilStopped(proxy);
      if (bySignal) {
        process.stdout.write('Proxy stopped.\n');
      } else {
        process.stderr.write('boardkit: Prism exited unexpectedly; its output is above.\n');
        process.exitCode = exitCodes.couldNotRun;
      }
    });
}
