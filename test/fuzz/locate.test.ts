/**
 * How `boardkit fuzz` finds Schemathesis (src/fuzz/locate.ts): the user's cache directory, a named
 * executable, the checkout's `.venv/`, one on PATH with the pinned version, and the clear error when no
 * Python is new enough to install it. The managed environment's first use is exercised for real by the
 * packaged-install test (test/package/installed.test.ts), which builds it in a temporary cache directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { locateSchemathesis, pinnedSchemathesis, projectSchemathesis, userCacheDir } from '../../src/fuzz/index.js';
import { findPython } from '../../src/fuzz/python.js';

describe('userCacheDir', () => {
  test.each([
    [{ XDG_CACHE_HOME: '/var/cache/me' }, 'linux', '/var/cache/me/boardkit'],
    [{ XDG_CACHE_HOME: '/var/cache/me' }, 'darwin', '/var/cache/me/boardkit'],
    // The XDG specification: a relative path is invalid and is ignored.
    [{ XDG_CACHE_HOME: 'relative/cache' }, 'linux', '/home/me/.cache/boardkit'],
    [{ XDG_CACHE_HOME: '' }, 'linux', '/home/me/.cache/boardkit'],
    [{}, 'linux', '/home/me/.cache/boardkit'],
    [{}, 'darwin', '/home/me/Library/Caches/boardkit'],
  ] as const)('%j on %s is %s', (env, platform, expected) => {
    expect(userCacheDir(env, platform, '/home/me')).toBe(expected);
  });
});

describe('locateSchemathesis', () => {
  // The checkout's environment, filled by `npm run setup`, which the test suite needs anyway.
  const checkoutExecutable = projectSchemathesis();
  let elsewhere: string;

  beforeAll(async () => {
    if (checkoutExecutable === undefined) {
      throw new Error('.venv/ has no schemathesis: run `npm run setup`');
    }
    elsewhere = await mkdtemp(join(tmpdir(), 'boardkit-locate-'));
  });

  afterAll(async () => {
    await rm(elsewhere, { recursive: true, force: true });
  });

  test('the pinned version is read from the requirements file', () => {
    expect(pinnedSchemathesis()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  test('a checkout of the kit uses its own .venv', async () => {
    expect(await locateSchemathesis({ path: '' })).toEqual({ executable: checkoutExecutable, source: 'project' });
  });

  test('--schemathesis PATH wins over everything else', async () => {
    const lines: string[] = [];
    const located = await locateSchemathesis({
      explicit: checkoutExecutable ?? '',
      onProgress: (line) => lines.push(line),
    });
    expect(located).toEqual({ executable: checkoutExecutable, source: 'option' });
    expect(lines).toEqual([]);
  });

  test('--schemathesis naming something that is not Schemathesis is a clear error', async () => {
    await expect(locateSchemathesis({ explicit: join(packageRoot, 'package.json') })).rejects.toThrow(
      /--schemathesis .*package\.json: .* --version` does not run; name a schemathesis executable/,
    );
  });

  test('outside a checkout, a schemathesis on PATH with the pinned version is used', async () => {
    const located = await locateSchemathesis({
      checkout: elsewhere,
      path: dirname(checkoutExecutable ?? ''),
      cacheDir: elsewhere,
    });
    expect(located).toEqual({ executable: checkoutExecutable, source: 'path' });
  });
});

describe('findPython', () => {
  test('no interpreter at all names the version needed and the way around it', async () => {
    await expect(findPython(['boardkit-no-such-python'])).rejects.toThrow(
      /needs Python 3\.11 or later for it, but no Python was found on PATH\. .*--schemathesis PATH/,
    );
  });

  test('an interpreter new enough is found with its version', async () => {
    const python = await findPython();
    expect(python.version).toMatch(/^3\.(1[1-9]|[2-9]\d)\.\d+$/);
  });
});
