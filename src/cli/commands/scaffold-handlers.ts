/**
 * `boardkit scaffold-handlers`: after an operation is added to the contract and `boardkit bundle` has
 * regenerated the types, writes a typed stub module for each operation the reference server has no
 * handler for (src/server/http/handler-stubs.ts), and prints the lines that put it in the handler map.
 * @module
 */
import { join, relative, resolve } from 'node:path';
import { Command } from 'commander';

interface ScaffoldOptions {
  outDir?: string;
}

export function scaffoldHandlersCommand(): Command {
  return new Command('scaffold-handlers')
    .description(
      'write a typed stub handler for each operation of the contract that has none (answers 501 until written)',
    )
    .argument('[operationId...]', 'only these operations (default: every one without a handler)')
    .option(
      '--out-dir <dir>',
      'folder of the handler modules (default: src/server/http/handlers under the current folder)',
    )
    .action(async (only: string[], options: ScaffoldOptions) => {
      // Loaded on use: the handler map pulls in the whole server.
      const { loadContract } = await import('../../contract/load.js');
      const { handlers } = await import('../../server/http/handlers/index.js');
      const { handlerStubs, writeHandlerStubs } = await import('../../server/http/handler-stubs.js');
      const folder = resolve(options.outDir ?? join('src', 'server', 'http', 'handlers'));
      const stubs = handlerStubs(loadContract(), new Set(Object.keys(handlers)), only);
      const { written, kept } = await writeHandlerStubs(stubs, folder);
      const lines = stubs.length === 0 ? ['Every operation of the contract has a handler.'] : [];
      const where = (file: string): string => relative(process.cwd(), join(folder, file));
      lines.push(...written.map((stub) => `Wrote ${where(stub.file)} (${stub.operationId})`));
      lines.push(...kept.map((stub) => `Kept ${where(stub.file)}: it exists (${stub.operationId})`));
      if (stubs.length > 0) {
        lines.push('', `Add to the handler map (${where('index.ts')}):`);
        lines.push(
          ...stubs.map((stub) => `  ${stub.mapEntry.importLine}`),
          ...stubs.map((stub) => `  ${stub.mapEntry.entry}`),
        );
      }
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
