/**
 * Runs Redocly CLI commands: `bundle` on the split contract and `build-docs` for the API reference.
 * Redocly CLI names each inlined component after its file (openapi/README.md: file base names are unique),
 * which `component-renaming-conflicts-severity=error` enforces instead of silently emitting `Name-2`.
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

/** Runs `redocly <command> ...args` in the package root; rejects with Redocly's diagnostics on failure. */
function runRedocly(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [redoclyBin(), command, ...args], {
      cwd: packageRoot,
      // The kit works offline and sends nothing anywhere (toolchain notes §3.1). For `build-docs` this
      // also sets `disableTelemetry` in the page; the `--openapi.disableTelemetry` flag is ignored (§3.3).
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
        reject(new Error(`redocly ${command} failed (exit ${String(code)}):\n${withoutBanner(stderr)}`));
      }
    });
  });
}

/** Bundles `root` into the single file `output`. */
export function redoclyBundle(root: string, output: string): Promise<void> {
  return runRedocly('bundle', [root, '--output', output, '--component-renaming-conflicts-severity=error']);
}

/**
 * Renders `document` as one HTML page with Redoc. `--inlineBundle` embeds Redoc's scripts in the page;
 * without it the page imports them from Redocly's CDN and, offline, shows only "Loading…" (§3.3).
 */
export function redoclyBuildDocs(document: string, output: string, title: string): Promise<void> {
  return runRedocly('build-docs', [document, '--inlineBundle', '--output', output, '--title', title]);
}
