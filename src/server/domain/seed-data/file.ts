/**
 * The seed data file of `boardkit serve --seed FILE` and `startServer({ seed })`: JSON or YAML, checked
 * against the kit's own JSON Schema (`schemas/seed.schema.json`, shipped in the package) before anything
 * starts. A file that does not fit is refused with the path of the first member that is wrong.
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { packageRoot } from '../../../contract/paths.js';
import type { StartSessionRequest } from '../../../board/types.js';
import type { Tier } from '../../ports/records.js';
import { internalError } from '../../core/internal-errors.js';
import type { ChosenMemo } from '../sessions/end-states.js';

/** Where the schema of a seed file lives in the package. */
export const seedSchemaPath = join(packageRoot, 'schemas', 'seed.schema.json');

export interface SeedSession {
  start: StartSessionRequest;
  state?: 'running' | 'complete' | 'failed' | 'cancelled';
  memo?: ChosenMemo;
  error?: { error_code: string; error_message: string };
  reason?: string;
}

export interface SeedWorkspace {
  api_keys: string[];
  tier?: Tier;
  credits?: number;
  sessions?: SeedSession[];
}

export interface SeedData {
  workspaces: SeedWorkspace[];
}

/** A seed file (or object) that cannot be loaded: the message names the source and the member. */
export const seedRefused = (source: string, problem: string) => internalError('BOARDKIT_CONFIG_SEED', source, problem);

let check: ReturnType<Ajv2020['compile']> | undefined;

/** The member an Ajv error is about, as a JSON Pointer into the seed data. */
function where(error: ErrorObject): string {
  const missing = error.keyword === 'required' ? `/${String(error.params.missingProperty)}` : '';
  const extra = error.keyword === 'additionalProperties' ? `/${String(error.params.additionalProperty)}` : '';
  return `${error.instancePath}${missing}${extra}` || '/';
}

function explain(error: ErrorObject): string {
  if (error.keyword === 'required') {
    return 'is required';
  }
  if (error.keyword === 'additionalProperties') {
    return 'is not a member the seed schema knows';
  }
  if (error.keyword === 'not') {
    return 'has a member only another state takes (memo: complete, error: failed, reason: cancelled)';
  }
  return error.message ?? 'is invalid';
}

/** Checks `value` against the seed schema; `source` names it in the error (a file, or `seed`). */
export function checkSeedData(value: unknown, source: string): SeedData {
  check ??= new Ajv2020({ allErrors: false, strict: false }).compile(
    JSON.parse(readFileSync(seedSchemaPath, 'utf8')) as object,
  );
  if (!check(value)) {
    // The innermost error comes first: the one that says what is wrong, not which branch failed.
    const error = (check.errors ?? []).find((each) => each.keyword !== 'if' && each.keyword !== 'allOf');
    if (error !== undefined) {
      throw seedRefused(source, `${where(error)} ${explain(error)} (schemas/seed.schema.json)`);
    }
  }
  return value as SeedData;
}

/** Reads and checks a seed file; YAML is a superset of JSON, so one parser reads both. */
export function readSeedFile(file: string): SeedData {
  let parsed: unknown;
  try {
    parsed = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw seedRefused(
      `seed file ${file}`,
      `${error instanceof Error && 'code' in error && error.code === 'ENOENT' ? 'no such file' : `not JSON or YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`}`,
    );
  }
  return checkSeedData(parsed, `seed file ${file}`);
}
