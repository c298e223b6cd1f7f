#!/usr/bin/env node
/**
 * Start-up time of the reference server (`boardkit serve`, the issue asks for under a second): from
 * spawning the process to the moment it accepts connections, against a baseline measured in the same run
 * on the same machine, a bare node:http server (bench/static-server.mjs) spawned the same way.
 *
 *   npm run build && node bench/server.mjs [--runs 7]
 *
 * The two take turns, so a change in the machine's load hits both; each line reports the median and the
 * slowest run. The figures go into docs/benchmarks.md.
 */
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const runs = Number(options.runs);

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer().once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

function accepts(port) {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** Milliseconds from spawning `args` until its port accepts a connection. */
async function startUp(args, port, env = {}) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } });
  const exited = new Promise((done) => child.once('exit', done));
  while (!(await accepts(port))) {
    // A tight poll: the connection attempt itself is the wait, and the figure is the time to listen.
    await new Promise((wake) => setImmediate(wake));
  }
  const elapsed = performance.now() - started;
  child.kill('SIGTERM');
  await exited;
  return elapsed;
}

const scenarios = [
  ['node:http (baseline)', (port) => startUp(['bench/static-server.mjs'], port, { PORT: String(port) })],
  ['boardkit serve', (port) => startUp(['bin/boardkit.js', 'serve', '--port', String(port), '--db', ':memory:'], port)],
];

const samples = new Map(scenarios.map(([name]) => [name, []]));
const loadBefore = loadavg()[0].toFixed(2);
for (let round = 0; round < runs; round += 1) {
  for (const [name, start] of scenarios) {
    samples.get(name).push(await start(await freePort()));
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const baseline = median(samples.get('node:http (baseline)'));
console.log(`${cpus().length} cores, Node ${process.version}, load average ${loadBefore} before, ${loadavg()[0].toFixed(2)} after, ${runs} runs each`);
console.log('| server | median ms | slowest ms | vs node:http |');
console.log('|---|---:|---:|---:|');
for (const [name, values] of samples) {
  const middle = median(values);
  console.log(`| ${name} | ${middle.toFixed(0)} | ${Math.max(...values).toFixed(0)} | ${(middle / baseline).toFixed(1)} |`);
}
