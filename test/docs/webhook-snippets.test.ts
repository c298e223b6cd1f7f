/**
 * The signature checks of docs/webhooks.md, run as a reader would run them, against the test vector the
 * contract carries (`x-webhook-delivery.test_vector`): the TypeScript function (type-checked, then run by
 * Node), the Python function (run by python3) and the openssl one-liners (run by bash). Each must accept
 * the vector and refuse a changed body, a stale timestamp and a missing header as the receiver rules say.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/contract/paths.js';
import { strictDiagnostics, writeModule } from '../support/snippet-program.js';
import { testVector as vector } from '../webhooks/fixtures/test-vector.js';

/** The code of the fenced block whose info string is exactly `info` (CommonMark §4.5). */
function snippet(markdown: string, info: string): string {
  const blocks = [...markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].filter((match) => match[1]?.trim() === info);
  if (blocks.length !== 1) {
    throw new Error(`docs/webhooks.md has ${blocks.length} blocks marked \`${info}\`, expected 1`);
  }
  return blocks[0]?.[2] ?? '';
}

function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${command} exited ${String(code)}: ${stderr}`)),
    );
    child.stdin.end(options.input ?? '');
  });
}

let markdown: string;
let scratch: string;

beforeAll(async () => {
  markdown = await readFile(join(packageRoot, 'docs', 'webhooks.md'), 'utf8');
  scratch = await mkdtemp(join(tmpdir(), 'boardkit-snippets-'));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

type Verify = (
  secret: string,
  rawBody: Buffer | string,
  signature?: string,
  timestamp?: string,
  nowSeconds?: number,
) => 'ok' | 400 | 401;

describe('the TypeScript check', () => {
  let verify: Verify;

  beforeAll(async () => {
    const source = join(scratch, 'verify.ts');
    await writeFile(source, snippet(markdown, 'ts verify'));
    expect(strictDiagnostics(source)).toEqual([]);
    const module = join(scratch, 'verify.mjs');
    await writeModule(module, await readFile(source, 'utf8'));
    ({ checkDelivery: verify } = (await import(pathToFileURL(module).href)) as { checkDelivery: Verify });
  });

  const { signing_secret: secret, raw_body: body, signature, timestamp } = vector;
  const at = String(timestamp);

  test('accepts the test vector within the replay window', () => {
    expect(verify(secret, Buffer.from(body), signature, at, timestamp + 299)).toBe('ok');
  });

  test('refuses a changed body or another secret with 401', () => {
    expect(verify(secret, `${body} `, signature, at, timestamp)).toBe(401);
    expect(verify(vector.legacy_secret, body, signature, at, timestamp)).toBe(401);
  });

  test('refuses a timestamp more than 300 seconds away with 401', () => {
    expect(verify(secret, body, signature, at, timestamp + 301)).toBe(401);
    expect(verify(secret, body, signature, at, timestamp - 301)).toBe(401);
  });

  test('refuses a missing header with 400', () => {
    expect(verify(secret, body, undefined, at, timestamp)).toBe(400);
    expect(verify(secret, body, signature, undefined, timestamp)).toBe(400);
  });
});

describe('the Python check', () => {
  test('accepts the test vector and refuses what the receiver rules refuse', async () => {
    const harness = [
      snippet(markdown, 'python verify'),
      'import json, sys',
      'v = json.load(sys.stdin)',
      'body, secret, sig, ts = v["raw_body"].encode(), v["signing_secret"], v["signature"], str(v["timestamp"])',
      'print(json.dumps([',
      '    verify_delivery(secret, body, sig, ts, now=v["timestamp"] + 299),',
      '    verify_delivery(secret, body + b" ", sig, ts, now=v["timestamp"]),',
      '    verify_delivery(secret, body, sig, ts, now=v["timestamp"] + 301),',
      '    verify_delivery(secret, body, None, ts, now=v["timestamp"]),',
      '    verify_delivery(secret, body, sig, None, now=v["timestamp"]),',
      ']))',
    ].join('\n');
    const output = await run('python3', ['-c', harness], { input: JSON.stringify(vector) });
    expect(JSON.parse(output)).toEqual(['ok', 401, 401, 400, 400]);
  });
});

describe('the openssl one-liners', () => {
  async function signWith(info: string, secret: string, body: string, timestamp?: number): Promise<string> {
    const folder = await mkdtemp(join(scratch, 'sh-'));
    await writeFile(join(folder, 'body.json'), body);
    const env = { SECRET: secret, ...(timestamp === undefined ? {} : { TIMESTAMP: String(timestamp) }) };
    return (await run('bash', ['-c', snippet(markdown, info)], { cwd: folder, env })).trim();
  }

  test('print the signature of the test vector', async () => {
    expect(await signWith('sh verify', vector.signing_secret, vector.raw_body, vector.timestamp)).toBe(
      vector.signature,
    );
  });

  test('print another signature for another timestamp', async () => {
    expect(await signWith('sh verify', vector.signing_secret, vector.raw_body, vector.timestamp + 1)).not.toBe(
      vector.signature,
    );
  });

  test('print the legacy signature over the raw body alone', async () => {
    expect(await signWith('sh verify-legacy', vector.legacy_secret, vector.legacy_raw_body)).toBe(
      vector.legacy_signature,
    );
  });
});
