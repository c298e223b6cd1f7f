/**
 * The composite GitHub Action at the repository root (`action.yml`). No runner is available here, so its
 * shape is checked instead: GitHub's documented metadata keys for a composite action (a JSON Schema in
 * test/fixtures, which refuses unknown keys), every input the steps read is declared and every declared
 * input is read, outputs point at real step ids, and the workflow in docs/implementers.md passes only
 * inputs the action declares, including every required one.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { packageRoot } from '../../src/contract/paths.js';

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}

interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { steps: Step[] };
}

const actionText = readFileSync(join(packageRoot, 'action.yml'), 'utf8');
const action = parse(actionText) as Action;
const schema = JSON.parse(
  readFileSync(join(packageRoot, 'test', 'fixtures', 'github-action.schema.json'), 'utf8'),
) as object;
const validate = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true }).compile(
  schema,
);

const used = (pattern: RegExp, text: string): Set<string> =>
  new Set([...text.matchAll(pattern)].map((match) => match[1] ?? ''));

describe('action.yml', () => {
  test('has the shape of a composite action', () => {
    expect(validate(action) ? [] : validate.errors).toEqual([]);
  });

  test('the schema refuses what the runner would not run', () => {
    const broken = structuredClone(action) as unknown as { runs: { using: string; steps: Record<string, unknown>[] } };
    broken.runs.using = 'node20';
    expect(validate(broken)).toBe(false);
    const both = structuredClone(action) as unknown as { runs: { steps: Record<string, unknown>[] } };
    both.runs.steps.push({ run: 'true', shell: 'bash', uses: 'actions/checkout@v4' });
    expect(validate(both)).toBe(false);
    expect(validate({ ...action, input: {} })).toBe(false);
  });

  test('every input the steps read is declared, and every declared input is read', () => {
    // Expressions (`${{ inputs.x }}`) and step conditions (`if: inputs.x != ''`) alike.
    const read = used(/\binputs\.([A-Za-z0-9_-]+)/g, actionText);
    expect([...read].sort()).toEqual(Object.keys(action.inputs).sort());
  });

  test('a required input has no default', () => {
    for (const [name, input] of Object.entries(action.inputs)) {
      expect({ name, default: input.required === true ? input.default : undefined }).toEqual({
        name,
        default: undefined,
      });
    }
  });

  test('outputs read steps that exist', () => {
    const ids = new Set(action.runs.steps.map((step) => step.id).filter((id) => id !== undefined));
    for (const output of Object.values(action.outputs)) {
      for (const id of used(/steps\.([A-Za-z0-9_-]+)\.outputs/g, output.value)) {
        expect(ids).toContain(id);
      }
    }
  });
});

describe("the conformance step's script", () => {
  const script = action.runs.steps.find((step) => step.id === 'conformance')!.run!;

  /** Runs the script with an `npx` on PATH that records its arguments and exits with `code`. */
  function runStep(
    code: number,
    env: Record<string, string>,
  ): { status: number | null; args: string[]; output: string } {
    const dir = mkdtempSync(join(tmpdir(), 'boardkit-action-'));
    try {
      writeFileSync(join(dir, 'npx'), `#!/usr/bin/env bash\nprintf '%s\\n' "$@" > "${dir}/args"\nexit ${code}\n`);
      chmodSync(join(dir, 'npx'), 0o755);
      writeFileSync(join(dir, 'output'), '');
      const base = {
        PATH: `${dir}:${process.env['PATH'] ?? ''}`,
        GITHUB_OUTPUT: join(dir, 'output'),
        RUNNER_TEMP: dir,
        TARGET: 'http://127.0.0.1:8080',
        PROFILE: 'default',
        REPORT_DIR: join(dir, 'reports'),
        TIMEOUT_SECONDS: '1800',
        ALLOW_INCOMPLETE: 'false',
      };
      const run = spawnSync('bash', ['-e', '-c', script], { env: { ...base, ...env }, encoding: 'utf8' });
      return {
        status: run.status,
        args: readFileSync(join(dir, 'args'), 'utf8').trim().split('\n'),
        output: readFileSync(join(dir, 'output'), 'utf8'),
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  test('an incomplete run (exit 3) fails the job, and says so in the output', () => {
    const run = runStep(3, {});
    expect(run.status).toBe(3);
    expect(run.output).toBe('exit-code=3\n');
    expect(run.args).not.toContain('--allow-incomplete');
  });

  test('allow-incomplete passes --allow-incomplete; the keys and the time limit reach the suite', () => {
    const run = runStep(0, {
      ALLOW_INCOMPLETE: 'true',
      TIER_KEYS: 'pro=sk_test_pro max=sk_test_max',
      LOW_CREDIT_KEY: 'sk_test_poor',
      TIMEOUT_SECONDS: '600',
    });
    expect(run.status).toBe(0);
    expect(run.args.join(' ')).toContain('--timeout 600');
    expect(run.args.join(' ')).toContain(
      '--tier-key pro=sk_test_pro --tier-key max=sk_test_max --low-credit-key sk_test_poor --allow-incomplete',
    );
  });
});

describe('the workflow in docs/implementers.md', () => {
  const guide = readFileSync(join(packageRoot, 'docs', 'implementers.md'), 'utf8');
  const workflows = [...guide.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  const actionSteps = workflows
    .flatMap((text) =>
      parseAllDocuments(text).map((document) => document.toJS() as { jobs?: Record<string, { steps?: Step[] }> }),
    )
    .flatMap((workflow) => Object.values(workflow.jobs ?? {}).flatMap((job) => job.steps ?? []))
    .filter((step) => step.uses?.startsWith('boardkit/boardkit@') === true);

  test('uses the action', () => {
    expect(actionSteps.length).toBeGreaterThan(0);
  });

  test('passes only declared inputs, and every required one', () => {
    const required = Object.entries(action.inputs)
      .filter(([, input]) => input.required === true)
      .map(([name]) => name);
    for (const step of actionSteps) {
      const given = Object.keys(step.with ?? {});
      expect(given.filter((name) => !(name in action.inputs))).toEqual([]);
      expect(required.filter((name) => !given.includes(name))).toEqual([]);
    }
  });
});
