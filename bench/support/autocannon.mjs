/**
 * What every bench shares: free ports, spawning a server and waiting until it listens, the CPU time a
 * server process spends (Linux /proc), one autocannon measurement with its warm-up, medians, and the
 * line describing the machine the figures were taken on.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
// The kit's own port helpers, as built into lib/ (every bench starts with `npm run build`).
import { canConnect, freePort } from '../../lib/src/mock/prism.js';

export { freePort };

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Whether a server accepts connections on 127.0.0.1:`port` now. */
export const accepts = (port) => canConnect('127.0.0.1', port);

const onLinux = existsSync('/proc/self/stat');
const clockTicks = onLinux ? Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) : 0;

/** CPU seconds used so far by a process and its descendants (Linux /proc), or NaN elsewhere. */
export function cpuSeconds(pid) {
  if (clockTicks === 0 || !existsSync(`/proc/${pid}/stat`)) {
    return Number.NaN;
  }
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const own = (Number(fields[11]) + Number(fields[12])) / clockTicks;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean);
  return own + children.reduce((sum, child) => sum + cpuSeconds(Number(child)), 0);
}

/** Spawns `node args…` in the package root and resolves once `port` accepts connections. */
export async function launch(args, port, env = {}) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise((done) => child.once('exit', done));
  let gone = false;
  void exited.then(() => (gone = true));
  while (!(await accepts(port))) {
    if (gone) {
      throw new Error(`${args.join(' ')} exited before listening`);
    }
    await new Promise((wake) => setTimeout(wake, 50));
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

/**
 * One autocannon run against `url` (`requests`, if given, are cycled through by every connection), after
 * `warmup` seconds of the same load. Fails on any non-2xx answer or error, since a fast error is no
 * measure of anything. `cpuOf` reads the server's CPU seconds.
 */
export async function measure(url, { connections, duration, warmup, headers, requests, cpuOf = () => Number.NaN }) {
  const run = (seconds) => autocannon({ url, connections, duration: seconds, headers, requests });
  if (warmup > 0) {
    await run(warmup);
  }
  const cpuBefore = cpuOf();
  const result = await run(duration);
  const cpu = cpuOf() - cpuBefore;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const total = result.requests.total;
  // autocannon's percentiles are whole milliseconds; the mean keeps the fraction.
  const { p50, p99, average: meanMs } = result.latency;
  const bytes = Math.round(result.throughput.total / total);
  return { rps: result.requests.average, p50, p99, meanMs, total, bytes, cpuMs: (cpu * 1000) / total };
}

/** Starts a server with `start(port)` (a `launch`), measures `path` on it with `load`, and stops it. */
export async function measureServer(start, path, load) {
  const port = await freePort();
  const server = await start(port);
  try {
    return await measure(`http://127.0.0.1:${port}${path}`, { ...load, cpuOf: server.cpu });
  } finally {
    await server.stop();
  }
}

/** Prism's command line script, and the flags the benches run it with (warnings only, on 127.0.0.1). */
export function prismCli() {
  const manifest = createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json');
  const script = join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin.prism);
  return { script, flags: ['--host', '127.0.0.1', '-v', 'warn', '--errors'] };
}

/** The middle element by `key` (the upper one of an even count). */
export function median(values, key = (value) => value) {
  return [...values].sort((a, b) => key(a) - key(b))[Math.floor(values.length / 2)];
}

/** Cores, CPU model, Node and the load average before and now: the conditions the figures hold for. */
export function machine(loadBefore) {
  const load = `load average ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after`;
  return `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, ${load}`;
}

export const loadNow = () => loadavg()[0];
