/**
 * `boardkit proxy --report-dir` as a CI gate, as users run it: the built command in a child process, in
 * front of a real `boardkit serve` on a free port, real HTTP through it, and a session's event stream read
 * through it with the kit's stream reader. In front of a rewriting server that breaks the contract (one
 * JSON member and one event's data) it exits 1 with both violations in its report; in front of the
 * reference server it exits 0 by itself once the server is stopped, with the coverage of the traffic.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readSessionEvents } from '../../src/client/streams.js';
import { loadContract } from '../../src/contract/load.js';
import { packageRoot } from '../../src/contract/paths.js';
import type { ProxyReport } from '../../src/mock/proxy/report.js';
import { startChildServer, type ChildServer } from '../reliability/child-server.js';

const apiKey = 'sk_test_proxygate0123456789';
const startBody = (loadContract().components?.examples?.['StartRequestVariantA'] as { value: unknown }).value;

interface ProxyRun {
  baseUrl: string;
  /** Resolves once the proxy has exited, with its exit code and output. */
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
  kill(signal: NodeJS.Signals): void;
}

function runProxy(args: string[]): Promise<ProxyRun> {
  const child = spawn(process.execPath, [join(packageRoot, 'bin', 'boardkit.js'), 'proxy', '--port', '0', ...args], {
    cwd: packageRoot,
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
    child.once('close', (code) => done({ code, stdout, stderr })),
  );
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      if (url !== undefined) {
        resolve({ baseUrl: url, exited, kill: (signal) => child.kill(signal) });
      }
    });
    void exited.then(({ code }) => reject(new Error(`boardkit proxy exited (${code}) before listening: ${stderr}`)));
  });
}

/** Health, a session started and its event stream read to the end, and the session read back. */
async function traffic(baseUrl: string): Promise<string[]> {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  expect((await fetch(`${baseUrl}/v1/health`)).status).toBe(200);
  const started = await fetch(`${baseUrl}/v1/sessions`, { method: 'POST', headers, body: JSON.stringify(startBody) });
  expect(started.status).toBe(202);
  const { id } = (await started.json()) as { id: string };
  const names: string[] = [];
  for await (const event of readSessionEvents({ baseUrl, apiKey }, id, { reconnects: 0 })) {
    names.push(event.event);
  }
  expect((await fetch(`${baseUrl}/v1/sessions/${id}`, { headers })).status).toBe(200);
  return names;
}

function reportIn(folder: string): ProxyReport {
  return JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')) as ProxyReport;
}

/**
 * Relays to the server and breaks what it answers the way a faulty implementation would: the health
 * status becomes a number, and every event's `round` a string, rewritten line by line as the stream passes.
 */
function rewritingServer(target: string): Promise<Server> {
  const server = createServer((incoming, outgoing) => {
    const upstream = httpRequest(`${target}${incoming.url ?? '/'}`, {
      method: incoming.method,
      headers: incoming.headers,
    });
    upstream.once('response', (answer) => {
      const { 'content-length': _length, ...headers } = answer.headers;
      outgoing.writeHead(answer.statusCode ?? 502, headers);
      let pending = '';
      answer.setEncoding('utf8').on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        outgoing.write(lines.map((line) => `${broken(line)}\n`).join(''));
      });
      answer.once('end', () => outgoing.end(broken(pending)));
    });
    incoming.pipe(upstream);
  });
  return new Promise((ready) => server.listen(0, '127.0.0.1', () => ready(server)));
}

function broken(line: string): string {
  return line.replace('"status":"ok"', '"status":1').replace(/"round":(\d+)/g, '"round":"$1"');
}

let folder: string;
let server: ChildServer;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'boardkit-proxy-gate-'));
  server = await startChildServer({ db: ':memory:', apiKeys: [apiKey], timeScale: 500 });
}, 120_000);

afterAll(async () => {
  await server?.kill('SIGTERM');
  rmSync(folder, { recursive: true, force: true });
});

describe('boardkit proxy --report-dir', () => {
  test('in front of an implementation that breaks the contract it exits 1 with the violations in its report', async () => {
    const rewriter = await rewritingServer(server.baseUrl);
    const reportDir = join(folder, 'broken');
    try {
      const { port } = rewriter.address() as AddressInfo;
      const proxy = await runProxy(['--upstream', `http://127.0.0.1:${port}`, '--report-dir', reportDir]);
      const names = await traffic(proxy.baseUrl);
      expect(names.at(-1)).toBe('session.complete');
      proxy.kill('SIGTERM');
      const { code, stdout, stderr } = await proxy.exited;
      expect(code).toBe(1);
      expect(stdout).toMatch(/^FAIL: \d+ violations/m);
      expect(stderr).toMatch(/Violation: response GET \/v1\/health → 200: #\/body\/status /);
      const report = reportIn(reportDir);
      expect(report).toMatchObject({ verdict: 'fail', exitCode: 1, stoppedBy: 'signal' });
      expect(report.violations).toContainEqual(
        expect.objectContaining({ kind: 'response', operation: 'getHealth', status: 200, pointer: '#/body/status' }),
      );
      const event = report.violations.find((violation) => violation.kind === 'stream');
      expect(event).toMatchObject({ operation: 'streamSessionEvents', status: 200, counted: true });
      expect(event?.pointer).toMatch(/^#\/events\/\d+\/data\/round$/);
      expect(event?.evidence.responseBody).toContain('"round":"1"');
      const junit = readFileSync(join(reportDir, 'junit.xml'), 'utf8');
      expect(junit).toMatch(
        /<testcase classname="proxy.operations" name="getHealth \(GET \/v1\/health\)"[^>]*>\s*<failure/,
      );
      expect(readFileSync(join(reportDir, 'report.html'), 'utf8')).toContain('data-verdict="fail"');
    } finally {
      await new Promise((closed) => rewriter.close(closed));
    }
  }, 180_000);

  test('in front of the reference server it exits 0 once the server stops, with the coverage of the traffic', async () => {
    const reportDir = join(folder, 'reference');
    const proxy = await runProxy(['--upstream', server.baseUrl, '--report-dir', reportDir]);
    const names = await traffic(proxy.baseUrl);
    expect(names).toContain('synth.message');
    // The upstream's end: refused three attempts in a row (probed every second) after it had answered.
    await server.kill('SIGTERM');
    const { code, stdout } = await proxy.exited;
    expect(code).toBe(0);
    expect(stdout).toMatch(/^PASS: no counted violation/m);
    const report = reportIn(reportDir);
    expect(report).toMatchObject({ verdict: 'pass', exitCode: 0, stoppedBy: 'upstream-gone', violations: [] });
    const operations = new Map(report.coverage.operations.map((operation) => [operation.operationId, operation]));
    expect(operations.get('getHealth')).toMatchObject({ calls: 1, statuses: { '200': 1 } });
    expect(operations.get('startSession')).toMatchObject({ calls: 1, statuses: { '202': 1 } });
    expect(operations.get('streamSessionEvents')?.statuses['200']).toBeGreaterThanOrEqual(1);
    expect(operations.get('getSession')?.unseenStatuses).toContain('404');
    expect(report.coverage.streamEvents).toContainEqual(expect.objectContaining({ name: 'session.complete', seen: 1 }));
    const started = report.coverage.variants.find((set) => set.set === 'StartSessionResponse');
    expect(started?.branches.filter((branch) => branch.seen > 0)).toHaveLength(1);
    expect(report.coverage.summary.operations).toMatchObject({ seen: 4 });
    expect(readFileSync(join(reportDir, 'junit.xml'), 'utf8')).not.toContain('<failure');
  }, 180_000);

  test('it could not run: a refused option, and an upstream that never answered', async () => {
    await expect(runProxy(['--upstream', 'http://127.0.0.1:9', '--fail-on', 'everything'])).rejects.toThrow(
      /exited \(2\).*--fail-on takes request, response, stream/s,
    );
    const reportDir = join(folder, 'nobody');
    const proxy = await runProxy(['--upstream', 'http://127.0.0.1:9', '--duration', '1', '--report-dir', reportDir]);
    const { code, stdout } = await proxy.exited;
    expect(code).toBe(2);
    expect(stdout).toMatch(/NO ANSWER: the upstream http:\/\/127\.0\.0\.1:9 never answered/);
    expect(reportIn(reportDir)).toMatchObject({ verdict: 'no answer', exitCode: 2, stoppedBy: 'duration' });
  }, 120_000);
});
