/**
 * Start-up of bench/server.mjs: from spawning a process to its printed `{base_url}` and to the first `200`
 * of its readiness path, with the CPU time it spent until then.
 * @module
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { cpuSeconds, freePort, root } from '../support/autocannon.mjs';

async function startUp(args, port, ready, env = {}) {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise((done) => child.once('exit', done));
  const printed = new Promise((done) => {
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      if (output.includes(`http://127.0.0.1:${port}`)) {
        done(performance.now() - started);
      }
    });
  });
  const healthy = async () => {
    for (;;) {
      const status = await fetch(`http://127.0.0.1:${port}${ready}`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) {
        return performance.now() - started;
      }
      // A poll every 5 ms: a tighter one would take from the server the CPU it is starting on.
      await new Promise((wake) => setTimeout(wake, 5));
    }
  };
  const [printedMs, healthyMs] = await Promise.all([args.includes('serve') ? printed : undefined, healthy()]);
  // The CPU time it took depends much less on what else the machine runs than the wall time.
  const cpuMs = cpuSeconds(child.pid) * 1000;
  child.kill('SIGTERM');
  await exited;
  return { printedMs, healthyMs, cpuMs };
}

const serveArgs = (db, port) => ['bin/boardkit.js', 'serve', '--port', String(port), '--db', db];

/**
 * `runs` start-ups each of a bare node:http server, `boardkit serve` on a fresh store (in `folder`) and on
 * the store `large` of `count` sessions, taking turns. Returns the samples by scenario name.
 */
export async function startUps({ folder, large, count, runs }) {
  const fresh = join(folder, 'fresh.db');
  const removeFresh = () => ['', '-wal', '-shm'].forEach((suffix) => rmSync(`${fresh}${suffix}`, { force: true }));
  const scenarios = [
    ['node:http (baseline)', (port) => startUp(['bench/support/static-server.mjs'], port, '/', { PORT: String(port) })],
    ['boardkit serve, fresh store', (port) => (removeFresh(), startUp(serveArgs(fresh, port), port, '/v1/health'))],
    [`boardkit serve, ${count} sessions`, (port) => startUp(serveArgs(large, port), port, '/v1/health')],
  ];
  const samples = new Map(scenarios.map(([name]) => [name, []]));
  for (let run = 0; run < runs; run += 1) {
    for (const [name, start] of scenarios) {
      samples.get(name).push(await start(await freePort()));
    }
  }
  removeFresh();
  return samples;
}
