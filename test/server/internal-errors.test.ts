/**
 * The server's internal-error catalogue (src/server/core/internal-errors.ts) holds both ways, like the
 * problem catalogue: every code it defines is thrown somewhere in the server or its control planes, every
 * internal error thrown there names a code of the catalogue, nothing there throws a bare `Error` or defines
 * an error class of its own, and the codes are unique and well formed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import {
  InternalError,
  internalError,
  internalErrorCodes,
  type InternalErrorCode,
} from '../../src/server/core/internal-errors.js';

const src = join(packageRoot, 'src');
const catalogueFile = 'server/core/internal-errors.ts';
/** The only error classes these folders define: the problem a client receives, and the internal error. */
const errorClasses = { 'server/core/problems.ts': 'ProblemError', [catalogueFile]: 'InternalError' };

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

const files = ['server', 'control-plane', 'test-control']
  .flatMap((folder) => sources(join(src, folder)))
  .map((path) => ({ name: relative(src, path).split(sep).join('/'), text: readFileSync(path, 'utf8') }));
const throwing = files.filter(({ name }) => name !== catalogueFile);

/** `file: match` for every match of `pattern` in the throwing files. */
function occurrences(pattern: RegExp): string[] {
  return throwing.flatMap(({ name, text }) => [...text.matchAll(pattern)].map((match) => `${name}: ${match[0]}`));
}

const thrownCodes = new Set(
  throwing.flatMap(({ text }) => [...text.matchAll(/\binternalError\(\s*'([^']*)'/g)].map((match) => match[1])),
);

describe('the internal-error catalogue', () => {
  test('every code it defines is thrown somewhere', () => {
    expect(internalErrorCodes.filter((code) => !thrownCodes.has(code))).toEqual([]);
  });

  test('every internal error thrown names a code of the catalogue, written out', () => {
    const known = new Set<string>(internalErrorCodes);
    expect([...thrownCodes].filter((code) => code === undefined || !known.has(code))).toEqual([]);
    // A code built at run time could not be checked here.
    expect(occurrences(/\binternalError\((?!\s*'BOARDKIT_)/g)).toEqual([]);
    expect(occurrences(/\bnew InternalError\(/g)).toEqual([]);
  });

  test('nothing throws a bare Error or an error class outside the catalogues', () => {
    expect(occurrences(/\bnew (?:Range|Type|Syntax)?Error\(/g)).toEqual([]);
    // A client hears of a failure through a problem (or, on the MCP endpoint, a JSON-RPC error).
    expect(occurrences(/\bthrow new (?!ProblemError\(|McpError\()\w+/g)).toEqual([]);
    const classes = files.flatMap(({ name, text }) =>
      [...text.matchAll(/\bclass (\w+) extends \w*Error\b/g)].map((match) => `${name}: ${match[1]}`),
    );
    expect(classes.sort()).toEqual(
      Object.entries(errorClasses)
        .map(([name, errorClass]) => `${name}: ${errorClass}`)
        .sort(),
    );
  });

  test('codes are unique and well formed', () => {
    expect(new Set(internalErrorCodes).size).toBe(internalErrorCodes.length);
    expect(internalErrorCodes.filter((code) => !/^BOARDKIT_[A-Z]+(?:_[A-Z0-9]+)+$/.test(code))).toEqual([]);
  });

  test('an internal error carries its code and message, and no HTTP status a framework could act on', () => {
    const error = internalError('BOARDKIT_RUN_NOT_IN_PROGRESS', 'ses_1');
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'InternalError',
      code: 'BOARDKIT_RUN_NOT_IN_PROGRESS' satisfies InternalErrorCode,
      message: 'no run in progress for ses_1',
    });
    expect('statusCode' in error).toBe(false);
  });
});
