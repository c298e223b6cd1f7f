/**
 * Runs `redocly bundle` on the split contract. Redocly CLI names each inlined component after its file
 * (openapi/README.md: file base names are unique), which `component-renaming-conflicts-severity=error`
 * enforces instead of silently emitting `Name-2`.
 * @module
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { packageRoot } from '../contract/paths.js';

/** The installed Redocly CLI entry point, resolved like any dependency (never fetched with npx). */
export function redoclyBin(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@redocly/cli/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: Record<string, string> };
  const bin = manifest.bin['redocly'];
  if (bin === undefined) {
    throw new Error('@redocly/cli declares no `redocly` bin');
  }
  return join(dirname(manifestPath), bin);
}

/** Redocly prints a boxed Node-version banner on stderr; it is noise in our error messages. */
function withoutBanner(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => !/[║╔╚]/.test(line))
    .join('\n')
    .trim();
}

/** Bundles `root` into the single file `output`; rejects with Redocly's diagnostics on failure. */
export function redoclyBundle(root: string, output: string): Promise<void> {
  const args = [
    redoclyBin(),
    'bundle',
    root,
    '--output',
    output,
    '--component-renaming-conflicts-severity=error',
  ];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: packageRoot,
      // The kit works offline and sends nothing anywhere (toolchain notes §3.1).
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) {
        resolvePromise();
      } else {
        reject(new Error(`redocly bundle failed (exit ${String(code)}):\n${withoutBanner(stderr)}`));
      }
    });
  });
}
