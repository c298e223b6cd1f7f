/**
 * `boardkit mock`: the mock of the API (src/mock), in the foreground until Ctrl-C. It prints the base
 * URL the contract's paths hang from and how to pick a response.
 * @module
 */
import { Command } from 'commander';
import { parsePort, runUntilStopped } from '../serving.js';

interface MockOptions {
  port: number;
  host: string;
  dynamic?: boolean;
}

function howTo(baseUrl: string, dynamic: boolean, prism: string): string {
  const mode = dynamic ? 'bodies generated from the schemas' : "the contract's named examples";
  return [
    `Mock of the Decision-Board API (Prism ${prism}, ${mode}), listening on`,
    '',
    `  ${baseUrl}    the {base_url} of the contract: its paths hang from it (${baseUrl}/v1/sessions)`,
    '',
    'Try:',
    `  curl ${baseUrl}/v1/health`,
    `  curl -H 'Authorization: Bearer sk_test_anything' ${baseUrl}/v1/sessions`,
    'Any bearer token is accepted; write "Bearer" with a capital B (Prism compares it case-sensitively).',
    'Pick a response with the Prefer header (or the __code and __example query parameters):',
    `  -H 'Prefer: code=202, example=variant_b'   a named example of a status`,
    `  -H 'Prefer: code=402'                      a documented error`,
    'The example names of every operation, and what the mock cannot do: mocks/README.md in the boardkit package.',
    'Ctrl-C stops the mock.',
    '',
  ].join('\n');
}

export function mockCommand(): Command {
  return new Command('mock')
    .description("serve a mock of the API from the bundled contract (Prism), answering with the contract's examples")
    .option('--port <port>', 'port to listen on', parsePort, 4010)
    .option('--host <host>', 'address to bind (keep the loopback default unless others must reach it)', '127.0.0.1')
    .option('--dynamic', 'generate bodies from the schemas instead of serving the named examples')
    .action(async (options: MockOptions) => {
      // Loaded on use: the mock document is derived from the whole contract.
      const { startMock } = await import('../../mock/mock.js');
      const { prismVersion } = await import('../../mock/prism.js');
      const dynamic = options.dynamic === true;
      const mock = await startMock({ host: options.host, port: options.port, dynamic, output: 'inherit' });
      process.stdout.write(howTo(mock.baseUrl, dynamic, prismVersion()));
      const bySignal = await runUntilStopped({ exited: mock.stopped.then(() => 0), stop: mock.stop });
      if (bySignal) {
        process.stdout.write('Mock stopped.\n');
      } else {
        process.stderr.write('boardkit: Prism exited unexpectedly; its output is above.\n');
        process.exitCode = 1;
      }
    });
}
