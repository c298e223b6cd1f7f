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
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { cpuSeconds, loadNow } from './support/autocannon.mjs';
import { seededRandom } from './support/seeded-random.mjs';
import { call, lineup, residentMiB, serve } from './soak/child-server.mjs';
import { connectionCost } from './soak/connection-cost.mjs';
import { printReport } from './soak/report.mjs';
import { kindPicker, kinds, percentile, totalWeight } from './soak/traffic-mix.mjs';

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

/** The mix of requests and every other choice (targets, rounds, failing deliveries) is reproducible with `--seed`. */
const random = seededRandom(seed);
const pickKind = kindPicker(random);

async function soak() {
  const folder = mkdtempSync(join(tmpdir(), 'boardkit-soak-'));
  // Each start reserves 10 credits; every workspace starts with 10,000. Enough keys for the whole soak.
  const starts = durationS * rate * (kinds[0].weight / totalWeight);
  const keys = Array.from(
    { length: Math.ceil((starts * 10) / 9_000) + 1 },
    (_, n) => `sk_test_soak${String(n).padStart(20, '0')}`,
  );
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
        json: {
          label: 'Soak receiver',
          url: `http://127.0.0.1:${receiver.address().port}/hooks`,
          events: ['session.created', 'session.complete', 'session.cancelled'],
        },
      });
      if (created.status !== 201) {
        throw new Error(`subscribing answered ${created.status}: ${await created.text()}`);
      }
    }
    const keyFor = (n) => keys[n % keys.length];
    const recent = () =>
      sessions[Math.max(0, sessions.length - 1 - Math.floor(random() * Math.min(50, sessions.length)))];

    async function send(kind, n) {
      const key = keyFor(n);
      if (
        sessions.length === 0 &&
        kind.name !== 'start' &&
        kind.name !== 'health' &&
        kind.name !== 'credits' &&
        kind.name !== 'list sessions'
      ) {
        kind = kinds[0];
      }
      const target = recent();
      const started = performance.now();
      let response;
      switch (kind.name) {
        case 'start': {
          const body = lineup(`Soak ${n}`, 1 + Math.floor(random() * 2));
          response = await call(server.baseUrl, key, '/v1/sessions', {
            method: 'POST',
            json: body,
            idempotencyKey: `soak-${n}`,
          });
          startBodies.push({ key, body, idempotencyKey: `soak-${n}` });
          break;
        }
        case 'replay start': {
          const earlier = startBodies[Math.floor(random() * startBodies.length)];
          response = await call(server.baseUrl, earlier.key, '/v1/sessions', {
            method: 'POST',
            json: earlier.body,
            idempotencyKey: earlier.idempotencyKey,
          });
          break;
        }
        case 'get session':
          response = await call(server.baseUrl, target.key, `/v1/sessions/${target.id}`);
          break;
        case 'long poll':
          response = await call(server.baseUrl, target.key, `/v1/sessions/${target.id}?wait_ms=100`);
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
          response = await call(server.baseUrl, target.key, `/v1/sessions/${target.id}/cancel`, {
            method: 'POST',
            json: {},
          });
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
    const sampler = setInterval(
      () => rss.push({ at: (performance.now() - began) / 1000, mib: residentMiB(server.pid) }),
      5_000,
    );
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
        console.error(
          `  ${Math.round((performance.now() - began) / 1000)} s: ${n} requests sent, RSS ${residentMiB(server.pid).toFixed(1)} MiB`,
        );
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
printReport(result, cost, { loadBefore, seed, timeScale, durationS, rate, connections });
