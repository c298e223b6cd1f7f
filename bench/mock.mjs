#!/usr/bin/env node
/**
 * Throughput of the mock on `GET /v1/sessions/{id}`, measured with autocannon over loopback, against two
 * baselines measured in the same run on the same machine:
 * - `node:http`: a bare Node server answering the same example body, the ceiling of an HTTP server here;
 * - `prism (contract)`: Prism on the bundled contract as it is, to show what the mock document's
 *   additions (routing fallbacks, event streams as text) cost.
 * The mock itself is started as users start it: `node bin/boardkit.js mock`.
 *
 *   npm run build && node bench/mock.mjs [--duration 10] [--connections 32] [--warmup 3] [--rounds 3]
 *
 * Each server runs alone, one after the other, and the servers take turns for several rounds so that a
 * change in the machine's load hits all of them; each line reports the round with the median req/s.
 * Throughput depends on what else the machine runs; the CPU time each request costs the server (read
 * from /proc on Linux, the server process and its children) depends much less on it.
 * The figures go into docs/benchmarks.md.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    warmup: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
  },
});
const duration = Number(options.duration);
const connections = Number(options.connections);
const warmup = Number(options.warmup);
const rounds = Number(options.rounds);

const path = '/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E';
const headers = { Authorization: 'Bearer sk_test_4eC39HqLyjWDarjtT1zdp7dc' };

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

const onLinux = existsSync('/proc/self/stat');
const clockTicks = onLinux ? Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) : 0;

/** CPU seconds used so far by a process and its descendants (Linux /proc), or NaN elsewhere. */
function cpuSeconds(pid) {
  if (clockTicks === 0 || !existsSync(`/proc/${pid}/stat`)) {
    return Number.NaN;
  }
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const own = (Number(fields[11]) + Number(fields[12])) / clockTicks;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean);
  return own + children.reduce((sum, child) => sum + cpuSeconds(Number(child)), 0);
}

/** Starts a server process and resolves once its port accepts connections. */
async function launch(args, port, env = {}) {
  const stdio = ['ignore', 'ignore', 'inherit'];
  const child = spawn(process.execPath, args, { cwd: root, stdio, env: { ...process.env, ...env } });
  const exited = new Promise((done) => child.once('exit', done));
  let gone = false;
  void exited.then(() => (gone = true));
  while (!(await accepts(port))) {
    if (gone) {
      throw new Error(`${args.join(' ')} exited before listening`);
    }
    await new Promise((wake) => setTimeout(wake, 100));
  }
  return {
    cpu: () => cpuSeconds(child.pid),
    async stop() {
      if (!gone) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

function run(url, seconds) {
  return autocannon({ url, connections, duration: seconds, headers });
}

async function measure(name, start) {
  const port = await freePort();
  const server = await start(port);
  try {
    const url = `http://127.0.0.1:${port}${path}`;
    if (warmup > 0) {
      await run(url, warmup);
    }
    const cpuBefore = server.cpu();
    const result = await run(url, duration);
    const cpu = server.cpu() - cpuBefore;
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(`${name}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
    }
    const total = result.requests.total;
    const { p50, p99 } = result.latency;
    return { name, rps: result.requests.average, p50, p99, total, cpuMs: (cpu * 1000) / total };
  } finally {
    await server.stop();
  }
}

const contract = JSON.parse(readFileSync(join(root, 'openapi/dist/openapi.json'), 'utf8'));
const running = contract.components.examples.SessionRunning?.value;
if (running === undefined) {
  throw new Error('The contract has no SessionRunning example');
}
const require = createRequire(import.meta.url);
const prismManifest = require.resolve('@stoplight/prism-cli/package.json');
const prism = join(dirname(prismManifest), JSON.parse(readFileSync(prismManifest, 'utf8')).bin.prism);
const prismFlags = ['--host', '127.0.0.1', '-v', 'warn', '--errors'];

const scenarios = [
  [
    'node:http (baseline)',
    (port) => launch(['bench/static-server.mjs'], port, { BODY: JSON.stringify(running), PORT: String(port) }),
  ],
  ['prism (contract)', (port) => launch([prism, 'mock', 'openapi/dist/openapi.json', ...prismFlags, '--port', `${port}`], port)],
  ['boardkit mock', (port) => launch(['bin/boardkit.js', 'mock', '--port', String(port)], port)],
];

const loadBefore = loadavg()[0].toFixed(2);
const runs = new Map(scenarios.map(([name]) => [name, []]));
for (let round = 1; round <= rounds; round += 1) {
  for (const [name, start] of scenarios) {
    const result = await measure(name, start);
    runs.get(name).push(result);
    const cpuMs = result.cpuMs.toFixed(3);
    process.stderr.write(`round ${round}: ${name} ${Math.round(result.rps)} req/s, ${cpuMs} CPU ms per request\n`);
  }
}
const median = (results) => [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)];
const results = [...runs.values()].map(median);
const baseline = results[0].rps;
const load = `load average: ${loadBefore} before, ${loadavg()[0].toFixed(2)} after`;
const lines = [
  `GET ${path}, ${connections} connections, ${duration} s after ${warmup} s of warm-up, loopback, median of ${rounds} rounds`,
  `${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}, ${load}`,
  '',
  '| server | req/s | p50 ms | p99 ms | requests | vs node:http | CPU ms per request | req/s of each round |',
  '|---|---:|---:|---:|---:|---:|---:|---|',
  ...results.map((r) => {
    const each = runs.get(r.name).map((round) => Math.round(round.rps));
    const ratio = (r.rps / baseline).toFixed(3);
    return `| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.total} | ${ratio} | ${r.cpuMs.toFixed(3)} | ${each.join(', ')} |`;
  }),
];
process.stdout.write(`${lines.join('\n')}\n`);
