/**
 * `boardkit mock`: the mock of the API (src/mock), in the foreground until Ctrl-C. It prints the base
 * URL the contract's paths hang from and how to pick a response. With `--watch` it serves the contract
 * source, bundled in memory, and every change to it on the same port (`../watch.ts`).
 * @module
 */
import { dirname, resolve } from 'node:path';
import { Command } from 'commander';
import type { OpenApiDocument } from '../../contract/load.js';
import { contractRoot } from '../../contract/paths.js';
import { exitCodes } from '../exit-codes.js';
import { parsePort, runUntilStopped } from '../serving.js';

async function bundleSource(root: string): Promise<OpenApiDocument> {
  const { bundleDocument } = await import('../../bundle/index.js');
  return (await bundleDocument(root)) as unknown as OpenApiDocument;
}

interface MockOptions {
  port: number;
  host: string;
  dynamic?: boolean;
  watch?: boolean;
  root?: string;
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
    .option('--watch', 'bundle the contract source in memory and serve each change to openapi/ on the same port')
    .option('--root <file>', 'with --watch: the contract root file to serve (default: openapi/openapi.yaml)')
    .action(async (options: MockOptions) => {
      // Loaded on use: the mock document is derived from the whole contract.
      const { startMock } = await import('../../mock/mock.js');
      const { prismVersion } = await import('../../mock/prism.js');
      const dynamic = options.dynamic === true;
      const root = options.root === undefined ? contractRoot : resolve(options.root);
      // Watching serves the source as it is now, not the bundle committed last.
      const contract = options.watch === true ? await bundleSource(root) : undefined;
      const mock = await startMock({
        host: options.host,
        port: options.port,
        dynamic,
        output: 'inherit',
        ...(contract === undefined ? {} : { contract }),
      });
      process.stdout.write(howTo(mock.baseUrl, dynamic, prismVersion()));
      let close = (): void => undefined;
      if (options.watch === true) {
        const { watchContract } = await import('../watch.js');
        const watcher = watchContract({
          root,
          apply: async (document) => {
            await mock.reload(document);
            process.stdout.write(`Mock reloaded: ${mock.baseUrl} serves the new contract.\n`);
          },
          print: (text) => process.stdout.write(text),
        });
        close = () => watcher.close();
        process.stdout.write(`Watching ${dirname(root)} for changes.\n`);
      }
      const stop = async (): Promise<void> => {
        close();
        await mock.stop();
      };
      const bySignal = await runUntilStopped({ exited: mock.stopped.then(() => 0), stop });
      if (bySignal) {
        process.stdout.write('Mock stopped.\n');
      } else {
        process.stderr.write('boardkit: Prism exited unexpectedly; its output is above.\n');
        process.exitCode = exitCodes.couldNotRun;
      }
    });
}
