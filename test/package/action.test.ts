/**
 * The composite GitHub Action at the repository root (`action.yml`). No runner is available here, so its
 * shape is checked instead: GitHub's documented metadata keys for a composite action (a JSON Schema in
 * test/fixtures, which refuses unknown keys), every input the steps read is declared and every declared
 * input is read, outputs point at real step ids, the steps' scripts do what their inputs say (run with
 * fake `npx`, `gh` and `git`), and the workflows in the docs pass only inputs the action declares,
 * including every required one.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * Runs the script of step `id` with fake commands on PATH (`npx`, `gh`, `git`), each recording its
 * arguments in `<name>.args` (one call a line) and running `body` (default: exit 0).
 */
function runStep(
  id: string,
  env: Record<string, string>,
  fakes: Record<string, string>,
): { status: number | null; calls: Record<string, string[]>; output: string; stdout: string } {
  const script = action.runs.steps.find((step) => step.id === id)!.run!;
  const dir = mkdtempSync(join(tmpdir(), 'boardkit-action-'));
  try {
    for (const [name, body] of Object.entries(fakes)) {
      writeFileSync(join(dir, name), `#!/usr/bin/env bash\necho "$*" >> "${dir}/${name}.args"\n${body}\n`);
      chmodSync(join(dir, name), 0o755);
    }
    writeFileSync(join(dir, 'output'), '');
    const base = {
      PATH: `${dir}:${process.env['PATH'] ?? ''}`,
      GITHUB_OUTPUT: join(dir, 'output'),
      GITHUB_STEP_SUMMARY: join(dir, 'summary'),
      GITHUB_REPOSITORY: 'octo/api',
      RUNNER_TEMP: dir,
    };
    const run = spawnSync('bash', ['-e', '-c', script], { env: { ...base, ...env }, encoding: 'utf8' });
    const calls = Object.fromEntries(
      Object.keys(fakes).map((name) => {
        const file = join(dir, `${name}.args`);
        return [name, existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []];
      }),
    );
    return { status: run.status, calls, output: readFileSync(join(dir, 'output'), 'utf8'), stdout: run.stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the conformance step's script", () => {
  const conformance = (code: number, env: Record<string, string>): ReturnType<typeof runStep> =>
    runStep(
      'conformance',
      {
        BOARDKIT_API_KEY: 'sk_test_key',
        TARGET: 'http://127.0.0.1:8080',
        PROFILE: 'default',
        REPORT_DIR: join(tmpdir(), 'boardkit-action-reports'),
        TIMEOUT_SECONDS: '1800',
        ALLOW_INCOMPLETE: 'false',
        ...env,
      },
      { npx: `exit ${code}` },
    );
  const args = (run: ReturnType<typeof runStep>): string => run.calls['npx']?.join('\n') ?? '';

  test('an incomplete run (exit 3) fails the job, and says so in the output', () => {
    const run = conformance(3, {});
    expect(run.status).toBe(3);
    expect(run.output).toBe('exit-code=3\n');
    expect(args(run)).not.toContain('--allow-incomplete');
  });

  test('allow-incomplete passes --allow-incomplete; the keys and the time limit reach the suite', () => {
    const run = conformance(0, {
      ALLOW_INCOMPLETE: 'true',
      TIER_KEYS: 'pro=sk_test_pro max=sk_test_max',
      LOW_CREDIT_KEY: 'sk_test_poor',
      TIMEOUT_SECONDS: '600',
    });
    expect(run.status).toBe(0);
    expect(args(run)).toContain('--timeout 600');
    expect(args(run)).toContain(
      '--tier-key pro=sk_test_pro --tier-key max=sk_test_max --low-credit-key sk_test_poor --allow-incomplete',
    );
  });

  test('without an API key the suite cannot run (exit 2), and says why', () => {
    const run = conformance(0, { BOARDKIT_API_KEY: '' });
    expect(run.status).toBe(2);
    expect(run.stdout).toContain('::error::api-key is required');
    expect(run.calls['npx']).toEqual([]);
  });
});

describe("the diff-comment step's script", () => {
  const report = '<!-- boardkit diff -->\n## Contract changes\n\n**Fails**: ...';
  /** `npx` prints a report and exits `code`; `gh api --paginate` lists a comment with the marker when `existing`. */
  const diffStep = (code: number, existing: boolean, env: Record<string, string> = {}): ReturnType<typeof runStep> =>
    runStep(
      'diff',
      { PR_NUMBER: '7', BASE_BRANCH: 'main', DIFF_BASE: '', DIFF_ROOT: 'openapi/openapi.yaml', ...env },
      {
        npx: `printf '%s\\n' '${report}'\nexit ${code}`,
        gh: existing ? `[[ "$*" == *--paginate* ]] && echo 42\nexit 0` : 'exit 0',
        git: 'exit 0',
      },
    );

  test('compares with the base branch and posts the Markdown as a new comment, failing like the diff', () => {
    const run = diffStep(1, false);
    expect(run.status).toBe(1);
    expect(run.output).toBe('exit-code=1\n');
    expect(run.calls['git']).toEqual(['fetch --no-tags --depth=1 origin +refs/heads/main:refs/remotes/origin/main']);
    expect(run.calls['npx']).toEqual([
      '--yes boardkit diff --format markdown --base origin/main --root openapi/openapi.yaml',
    ]);
    expect(run.calls['gh']?.[0]).toContain('api --paginate repos/octo/api/issues/7/comments --jq');
    expect(run.calls['gh']?.[0]).toContain('startswith("<!-- boardkit diff -->")');
    expect(run.calls['gh']?.[1]).toMatch(
      /^api --method POST repos\/octo\/api\/issues\/7\/comments -F body=@.*boardkit-diff\.md$/,
    );
  });

  test('updates the comment it posted before', () => {
    const run = diffStep(0, true, { DIFF_BASE: 'v1.0.0' });
    expect(run.status).toBe(0);
    expect(run.calls['git']).toEqual([]);
    expect(run.calls['npx']?.[0]).toContain('--base v1.0.0');
    expect(run.calls['gh']?.[1]).toMatch(/^api --method PATCH repos\/octo\/api\/issues\/comments\/42 -F body=@/);
  });

  test('posts nothing when the diff could not run', () => {
    const run = diffStep(2, false);
    expect(run.status).toBe(2);
    expect(run.calls['gh']).toEqual([]);
  });
});

describe('the workflows in docs/implementers.md and docs/designers.md', () => {
  const guide = ['implementers.md', 'designers.md']
    .map((page) => readFileSync(join(packageRoot, 'docs', page), 'utf8'))
    .join('\n');
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
