#!/usr/bin/env node
/**
 * Soak of the reference server (not run by the tests): `boardkit serve` as users start it, a child process
 * on a database file, under mixed traffic at a steady rate for a long time (10 minutes by default), with a
 * webhook receiver subscribed to its session events.
 *
 *   npm run build && node bench/soak.mjs [--duration 600] [--rate 50] [--time-scale 60] [--connections 1000] [--seed N]
 *
 * The traffic is open-loop: request n is sent at n / rate seconds whatever the answers before it, so a
 * slow server shows as latency, not as a lower rate. Each request is one of: start a session (with an
 * Idempotency-Key), replay an earlier start, read a session, long-poll it, read its event stream, list
 * sessions, read the credits, cancel a session, read the health probe. Simulated time runs `--time-scale`
 * times faster, so runs finish and webhook retries fall due within the soak.
 *
 * It prints the throughput, latency percentiles (all requests and per kind), answers outside the expected
 * statuses, the server's resident memory (RSS, from /proc) sampled over the soak and its drift from the
 * end of the warm-up to the end, and the deliveries the receiver took. Before the soak, with
 * `--connections N` (0 skips it), a separate server at real speed holds N event streams and then N long
 * polls open, and the RSS each costs is reported. The figures go into docs/reliability.md.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { accepts, cpuSeconds, freePort, loadNow, machine, root } from './support/autocannon.mjs';

const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '600' },
    rate: { type: 'string', default: '50' },
    'time-scale': { type: 'string', default: '60' },
    connections: { type: 'string', default: '1000' },
    seed: { type: 'string', default: String(Date.now() % 2 ** 31) },
  },
});
const durationS = Number(options.duration);
const rate = Number(options.rate);
const timeScale = Number(options['time-scale']);
const connections = Number(options.connections);
const seed = Number(options.seed);

/** mulberry32: the mix of requests is reproducible with `--seed`. */
function seededRandom(start) {
  let state = start >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const random = seededRandom(seed);

function residentMiB(pid) {
  const kilobytes = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kilobytes) / 1024;
}

/** `boardkit serve` on a database file in `folder`, resolved once it accepts connections. */
async function serve(folder, keys, scale) {
  const port = await freePort();
  const args = ['bin/boardkit.js', 'serve', '--port', String(port), '--db', join(folder, 'board.db'), '--time-scale', String(scale)];
  const child = spawn(process.execPath, [...args, ...keys.flatMap((key) => ['--api-key', key]), '--allow-private-webhook-urls'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((done) => child.once('exit', done));
  while (!(await accepts(port))) {
    if (child.exitCode !== null) {
      throw new Error('boardkit serve exited before listening');
    }
    await new Promise((wake) => setTimeout(wake, 50));
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function call(baseUrl, key, path, { method = 'GET', json, idempotencyKey } = {}) {
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
}

const lineup = (title, rounds) => ({ mode: 'boardroom', title, synths: ['cfo', 'skeptic'], rounds });

/** Opens a request that stays open (an event stream or a long poll); resolves once its head is sent. */
function holdOpen(baseUrl, key, path, held) {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` }, agent: false }, (response) => {
      response.resume();
      resolve();
    });
    request.on('error', reject);
    request.end();
    held.push(request);
  });
}

/** The RSS a held-open event stream and long poll each cost the server, at real speed. */
async function connectionCost(count) {
  const folder = mkdtempSync(join(tmpdir(), 'boardkit-soak-connections-'));
  const key = 'sk_test_soakconnections000000001';
  const server = await serve(folder, [key], 1);
  const held = [];
  try {
    // A long run, watched by the streams; a cancelled session, whose long polls wait their full 60 s.
    const watched = await (await call(server.baseUrl, key, '/v1/sessions', { method: 'POST', json: { ...lineup('Watched', 10), synths: ['cfo', 'skeptic', 'strategist'] } })).json();
    const cancelled = await (await call(server.baseUrl, key, '/v1/sessions', { method: 'POST', json: lineup('Polled', 1) })).json();
    await (await call(server.baseUrl, key, `/v1/sessions/${cancelled.id}/cancel`, { method: 'POST', json: {} })).arrayBuffer();
    await (await call(server.baseUrl, key, `/v1/sessions/${watched.id}`)).arrayBuffer();
    const base = residentMiB(server.pid);
    for (let n = 0; n < count; n += 100) {
      await Promise.all(Array.from({ length: Math.min(100, count - n) }, () => holdOpen(server.baseUrl, key, `/v1/sessions/${watched.id}/events`, held)));
    }
    const withStreams = residentMiB(server.pid);
    const polls = [];
    for (let n = 0; n < count; n += 100) {
      for (let m = 0; m < Math.min(100, count - n); m += 1) {
        // A long poll sends its head only when it answers: count it once its request is written.
        polls.push(new Promise((resolve) => {
          const request = httpRequest(`${server.baseUrl}/v1/sessions/${cancelled.id}?wait_ms=60000`, { headers: { authorization: `Bearer ${key}` }, agent: false }, (response) => response.resume());
          request.on('error', () => undefined);
          request.on('finish', resolve);
          request.end();
          held.push(request);
        }));
      }
      await Promise.all(polls);
    }
    // The last requests written need a moment to be read by the server before its memory is read.
    await new Promise((wake) => setTimeout(wake, 2_000));
    const withPolls = residentMiB(server.pid);
    return {
      base,
      withStreams,
      withPolls,
      perStreamKiB: ((withStreams - base) * 1024) / count,
      perPollKiB: ((withPolls - withStreams) * 1024) / count,
    };
  } finally {
    held.forEach((request) => request.destroy());
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The kinds of request, their share of the traffic and the statuses each may answer. */
const kinds = [
  { name: 'start', weight: 10, ok: [202] },
  { name: 'replay start', weight: 5, ok: [202] },
  { name: 'get session', weight: 20, ok: [200] },
  { name: 'long poll', weight: 10, ok: [200] },
  { name: 'event stream', weight: 10, ok: [200] },
  { name: 'list sessions', weight: 15, ok: [200] },
  { name: 'credits', weight: 10, ok: [200] },
  // A session that has already ended cannot be cancelled: 409 is an expected answer.
  { name: 'cancel', weight: 5, ok: [200, 409] },
  { name: 'health', weight: 15, ok: [200] },
];
const totalWeight = kinds.reduce((sum, kind) => sum + kind.weight, 0);

function pickKind() {
  let pick = random() * totalWeight;
  return kinds.find((kind) => (pick -= kind.weight) < 0) ?? kinds[0];
}

function percentile(sorted, p) {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function soak() {
  const folder = mkdtempSync(join(tmpdir(), 'boardkit-soak-'));
  // Each start reserves 10 credits; every workspace starts with 10,000. Enough keys for the whole soak.
  const starts = durationS * rate * (kinds[0].weight / totalWeight);
  const keys = Array.from({ length: Math.ceil((starts * 10) / 9_000) + 1 }, (_, n) => `sk_test_soak${String(n).padStart(20, '0')}`);
  const deliveries = new Map();
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const event = String(request.headers['x-service-event']);
      deliveries.set(event, (deliveries.get(event) ?? 0) + 1);
      // One attempt in twenty fails, so that retries are part of the load.
      response.writeHead(random() < 0.05 ? 500 : 200).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const server = await serve(folder, keys, timeScale);
  const sessions = [];
  const startBodies = [];
  const latencies = new Map(kinds.map((kind) => [kind.name, []]));
  const unexpected = new Map();
  const rss = [];
  let failures = 0;
  let latest = 0;
  try {
    for (const key of keys) {
      const created = await call(server.baseUrl, key, '/v1/webhooks', {
        method: 'POST',
        json: { label: 'Soak receiver', url: `http://127.0.0.1:${receiver.address().port}/hooks`, events: ['session.created', 'session.complete', 'session.cancelled'] },
      });
      if (created.status !== 201) {
        throw new Error(`subscribing answered ${created.status}: ${await created.text()}`);
      }
    }
    const keyFor = (n) => keys[n % keys.length];
    const recent = () => sessions[Math.max(0, sessions.length - 1 - Math.floor(random() * Math.min(50, sessions.length)))];

    async function send(kind, n) {
      const key = keyFor(n);
      if (sessions.length === 0 && kind.name !== 'start' && kind.name !== 'health' && kind.name !== 'credits' && kind.name !== 'list sessions') {
        kind = kinds[0];
      }
      const target = recent();
      const started = performance.now();
      let response;
      switch (kind.name) {
        case 'start': {
          const body = lineup(`Soak ${n}`, 1 + Math.floor(random() * 2));
          response = await call(server.baseUrl, key, '/v1/sessions', { method: 'POST', json: body, idempotencyKey: `soak-${n}` });
          startBodies.push({ key, body, idempotencyKey: `soak-${n}` });
          break;
        }
        case 'replay start': {
          const earlier = startBodies[Math.floor(random() * startBodies.length)];
          response = await call(server.baseUrl, earlier.key, '/v1/sessions', { method: 'POST', json: earlier.body, idempotencyKey: earlier.idempotencyKey });
          break;
        }
        case 'get session':
          response = await call(server.baseUrl, target.key, `/v1/sessions/${target.id}`);
          break;
        case 'long poll':
          response = await call(server.baseUrl, target.key, `/v1/sessions/${target.id}?wait_ms=5000`);
          break;
        case 'event stream':
          response = await call(server.baseUrl, target.key, `/v1/sessions/${target.id}/events?finite=true`);
          break;
        case 'list sessions':
          response = await call(server.baseUrl, key, '/v1/sessions?limit=20');
          break;
        case 'credits':
          response = await call(server.baseUrl, key, '/credits');
          break;
        case 'cancel':
          response = await call(server.baseUrl, target.key, `/v1/sessions/${target.id}/cancel`, { method: 'POST', json: {} });
          break;
        default:
          response = await fetch(`${server.baseUrl}/v1/health`);
      }
      const text = await response.text();
      latencies.get(kind.name).push(performance.now() - started);
      if (kind.name === 'start' && response.status === 202) {
        sessions.push({ key, id: JSON.parse(text).id });
      }
      if (!kind.ok.includes(response.status)) {
        const label = `${kind.name} ${response.status}`;
        unexpected.set(label, { count: (unexpected.get(label)?.count ?? 0) + 1, sample: text.slice(0, 200) });
      }
    }

    const warmupS = Math.min(60, durationS / 5);
    const total = Math.floor(durationS * rate);
    const began = performance.now();
    const inFlight = new Set();
    const sampler = setInterval(() => rss.push({ at: (performance.now() - began) / 1000, mib: residentMiB(server.pid) }), 5_000);
    // The sender's own stalls: on a busy machine they show up in the latencies too.
    const senderDelay = monitorEventLoopDelay({ resolution: 10 });
    senderDelay.enable();
    const cpuBefore = cpuSeconds(server.pid);
    rss.push({ at: 0, mib: residentMiB(server.pid) });
    for (let n = 0; n < total; n += 1) {
      const due = began + (n * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) {
        await new Promise((wake) => setTimeout(wake, wait));
      }
      latest = Math.max(latest, performance.now() - due);
      const task = send(pickKind(), n)
        .catch(() => (failures += 1))
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
      if (n > 0 && n % (rate * 60) === 0) {
        console.error(`  ${Math.round((performance.now() - began) / 1000)} s: ${n} requests sent, RSS ${residentMiB(server.pid).toFixed(1)} MiB`);
      }
    }
    await Promise.all(inFlight);
    const elapsedS = (performance.now() - began) / 1000;
    const cpuMs = (cpuSeconds(server.pid) - cpuBefore) * 1000;
    senderDelay.disable();
    clearInterval(sampler);
    rss.push({ at: elapsedS, mib: residentMiB(server.pid) });

    // Long polls wait for a change by design; the overall figures are of the requests that answer at once.
    const all = [...latencies].flatMap(([name, values]) => (name === 'long poll' ? [] : values)).sort((a, b) => a - b);
    const answered = [...latencies.values()].reduce((sum, values) => sum + values.length, 0);
    const afterWarmup = rss.filter((sample) => sample.at >= warmupS);
    const warm = afterWarmup[0] ?? rss[0];
    const end = rss.at(-1);
    // Least-squares slope of RSS over the samples after the warm-up, in MiB per minute.
    const meanAt = afterWarmup.reduce((sum, s) => sum + s.at, 0) / afterWarmup.length;
    const meanMib = afterWarmup.reduce((sum, s) => sum + s.mib, 0) / afterWarmup.length;
    const slope =
      (afterWarmup.reduce((sum, s) => sum + (s.at - meanAt) * (s.mib - meanMib), 0) /
        afterWarmup.reduce((sum, s) => sum + (s.at - meanAt) ** 2, 0)) *
      60;
    return {
      elapsedS,
      requests: answered,
      throughput: answered / elapsedS,
      p50: percentile(all, 50),
      p99: percentile(all, 99),
      max: all.at(-1),
      perKind: kinds.map((kind) => {
        const sorted = latencies.get(kind.name).sort((a, b) => a - b);
        return { name: kind.name, count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
      }),
      unexpected,
      failures,
      latestMs: latest,
      cpuMsPerRequest: cpuMs / answered,
      cpuShare: cpuMs / 1000 / elapsedS,
      senderDelayP99: senderDelay.percentile(99) / 1e6,
      senderDelayMax: senderDelay.max / 1e6,
      rss: { start: rss[0].mib, warm: warm.mib, end: end.mib, max: Math.max(...rss.map((s) => s.mib)), slope, warmupS },
      sessions: sessions.length,
      keys: keys.length,
      dbMiB: statSync(join(folder, 'board.db')).size / 2 ** 20,
      deliveries,
    };
  } finally {
    await server.stop();
    await new Promise((resolve) => receiver.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  }
}

const loadBefore = loadNow();
const cost = connections > 0 ? await connectionCost(connections) : undefined;
const result = await soak();
const ms = (value) => value.toFixed(1);
console.log(`${machine(loadBefore)}; seed ${seed}`);
console.log(`boardkit serve --time-scale ${timeScale}, ${durationS} s at ${rate} requests/s (open loop), ${result.keys} workspaces`);
if (cost !== undefined) {
  console.log(
    `connections at real speed: RSS ${ms(cost.base)} MiB idle, ${ms(cost.withStreams)} MiB with ${connections} event streams ` +
      `(${cost.perStreamKiB.toFixed(1)} KiB each), ${ms(cost.withPolls)} MiB with ${connections} long polls more (${cost.perPollKiB.toFixed(1)} KiB each)`,
  );
}
console.log(
  `throughput ${result.throughput.toFixed(1)} requests/s (${result.requests} answered in ${result.elapsedS.toFixed(0)} s); ` +
    `latency (all but long polls) p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms, max ${ms(result.max)} ms; ` +
    `sender behind schedule by at most ${ms(result.latestMs)} ms, its event loop delayed p99 ${ms(result.senderDelayP99)} ms, ` +
    `max ${ms(result.senderDelayMax)} ms; server CPU ${result.cpuMsPerRequest.toFixed(2)} ms per request (${(result.cpuShare * 100).toFixed(0)}% of a core)`,
);
console.log('| request | count | p50 ms | p99 ms |');
console.log('|---|---:|---:|---:|');
for (const kind of result.perKind) {
  console.log(`| ${kind.name} | ${kind.count} | ${ms(kind.p50)} | ${ms(kind.p99)} |`);
}
console.log(
  `RSS ${ms(result.rss.start)} MiB at start, ${ms(result.rss.warm)} MiB after ${result.rss.warmupS.toFixed(0)} s of warm-up, ` +
    `${ms(result.rss.end)} MiB at the end (max ${ms(result.rss.max)}): drift ${ms(result.rss.end - result.rss.warm)} MiB, ` +
    `trend ${result.rss.slope.toFixed(2)} MiB/min after warm-up`,
);
console.log(
  `${result.sessions} sessions started, database ${ms(result.dbMiB)} MiB; webhook attempts received: ` +
    `${[...result.deliveries].map(([event, count]) => `${count} ${event}`).join(', ')}`,
);
console.log(
  `unexpected answers: ${result.unexpected.size === 0 ? 'none' : [...result.unexpected].map(([label, { count, sample }]) => `${count}× ${label} (${sample})`).join('; ')}; ` +
    `failed requests: ${result.failures}`,
);
if (result.unexpected.size > 0 || result.failures > 0) {
  process.exitCode = 1;
}
