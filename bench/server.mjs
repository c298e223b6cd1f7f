#!/usr/bin/env node
/**
 * The reference server (`boardkit serve`, run as users run it) against baselines measured in the same
 * run on the same machine:
 *
 * 1. Start-up (the issue asks for under a second): from spawning the process to the printed `{base_url}`
 *    and to the first `200` of `GET /v1/health`, on a fresh store and on the store of a million sessions;
 *    the baseline is a bare node:http server spawned the same way.
 * 2. Throughput with autocannon over loopback, of `GET /v1/sessions/{id}` and `GET /v1/sessions?limit=50`
 *    on the store of a thousand sessions, beside a bare Fastify route answering the same JSON (target: at
 *    least half its requests/s) and beside Prism mocking the bundled contract with the server's answers as
 *    the operations' examples, so that it too sends the same JSON (target: ten times). The server keeps
 *    each session's answer in memory until the session is written (`--kept-sessions`), so the list is
 *    measured three times: the same page over and over, 200 pages in turn (none sent twice within 200
 *    answers), and those 200 pages with no session kept, each page read from the store.
 * 3. List latency on a thousand and on a million sessions: the first page, 19 pages in turn (950 sessions
 *    on both stores), and the 200 deep pages in turn, with the sessions kept and read from the store
 *    (target: the million within 1.5 times the thousand).
 *
 *   npm run build && node bench/server.mjs [--duration 10] [--connections 16] [--warmup 3] [--rounds 3]
 *     [--latency-connections 4] [--startups 5] [--sessions 1000000] [--stores DIR]
 *     [--parts start-up,throughput,latency]
 *
 * The stores are seeded once by bench/support/seed-sessions.mjs into DIR (default: the OS's temporary
 * folder) and reused while their marker file says they hold the count (delete DIR to seed them again,
 * say after the session record changed). The server runs at `--time-scale 10000`: the reads bucket
 * (3,000 a minute) then refills every 6 ms, room for 500,000 requests a second, so the limiter still
 * counts every request but never refuses one. Scenarios take turns for several rounds so that a change in the machine's load hits all of them;
 * each line is the round with the median. The figures go into docs/benchmarks.md.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { freePort, launch, loadNow, machine, measureServer, median, prismCli } from './support/autocannon.mjs';
import { seedKey, seedSessions } from './support/seed-sessions.mjs';
import { pagesInTurn } from './server/list-pages.mjs';
import { prismDocument } from './server/prism-document.mjs';
import { startUps } from './server/start-up.mjs';

const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    warmup: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    'latency-connections': { type: 'string', default: '4' },
    startups: { type: 'string', default: '5' },
    sessions: { type: 'string', default: '1000000' },
    stores: { type: 'string', default: join(tmpdir(), 'boardkit-bench') },
    parts: { type: 'string', default: 'start-up,throughput,latency' },
  },
});
const duration = Number(options.duration);
const warmup = Number(options.warmup);
const rounds = Number(options.rounds);
const headers = { Authorization: `Bearer ${seedKey}` };
const throughputLoad = { connections: Number(options.connections), duration, warmup, headers };
const latencyLoad = { connections: Number(options['latency-connections']), duration, warmup, headers };
const progress = (line) => process.stderr.write(`${line}\n`);
const loadBefore = loadNow();
/** The deep pages asked for in turn, spread over the list: 10,000 sessions at most, all of them kept by default. */
const deepPages = 200;

/** The store file holding `count` sessions, seeded unless a previous run left it. */
async function store(count) {
  const file = join(options.stores, `sessions-${count}.db`);
  const marker = `${file}.seeded`;
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== String(count)) {
    progress(`seeding ${count} sessions into ${file}`);
    const started = performance.now();
    await seedSessions(file, count);
    writeFileSync(marker, String(count));
    progress(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return file;
}

/** `boardkit serve` on `db`; `keptSessions` as `--kept-sessions` (the server's default when undefined). */
const serve = (db, keptSessions) => (port) =>
  launch(
    [
      'bin/boardkit.js',
      'serve',
      '--port',
      String(port),
      '--db',
      db,
      '--api-key',
      seedKey,
      '--time-scale',
      '10000',
      ...(keptSessions === undefined ? [] : ['--kept-sessions', String(keptSessions)]),
    ],
    port,
  );
const bareFastify = (body) => (port) =>
  launch(['bench/support/bare-fastify.mjs'], port, { BODY: body, PORT: String(port) });
const prism = prismCli();
const prismMock = (document) => (port) =>
  launch([prism.script, 'mock', document, ...prism.flags, '--port', `${port}`], port);

/** Runs each scenario once a round and keeps, per scenario, the round with the median of `key`. */
async function inTurns(scenarios, key) {
  const runs = new Map(scenarios.map((scenario) => [scenario.name, []]));
  for (let round = 1; round <= rounds; round += 1) {
    for (const scenario of scenarios) {
      const result = await scenario.run();
      runs.get(scenario.name).push(result);
      progress(
        `round ${round}: ${scenario.name}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`,
      );
    }
  }
  return new Map([...runs].map(([name, each]) => [name, { ...median(each, key), each }]));
}

// 2. Throughput.
async function capture(db, path) {
  const port = await freePort();
  const server = await serve(db)(port);
  try {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
    if (response.status !== 200) {
      throw new Error(`GET ${path} answered ${response.status}`);
    }
    return await response.text();
  } finally {
    await server.stop();
  }
}

async function throughput(small, sessionId) {
  const inTurn = await pagesInTurn(small, 1000, deepPages);
  const paths = [
    ['GET /v1/sessions/{id}', '/v1/sessions/{id}', `/v1/sessions/${sessionId}`],
    ['GET /v1/sessions?limit=50', '/v1/sessions', '/v1/sessions?limit=50'],
  ];
  const answers = [];
  for (const [operation, template, path] of paths) {
    answers.push({ operation, template, path, body: await capture(small, path) });
  }
  const document = prismDocument(answers, options.stores);
  const results = [];
  for (const { operation, template, path, body } of answers) {
    const scenarios = [
      { name: 'bare Fastify (baseline)', run: () => measureServer(bareFastify(body), path, throughputLoad) },
      { name: 'prism (same JSON)', run: () => measureServer(prismMock(document), path, throughputLoad) },
      { name: 'boardkit serve', run: () => measureServer(serve(small), path, throughputLoad) },
    ];
    if (template === '/v1/sessions') {
      const load = { ...throughputLoad, requests: inTurn };
      scenarios.push(
        { name: `boardkit serve, ${deepPages} pages in turn`, run: () => measureServer(serve(small), path, load) },
        {
          name: `boardkit serve --kept-sessions 0, ${deepPages} pages in turn`,
          run: () => measureServer(serve(small, 0), path, load),
        },
      );
    }
    results.push({ operation, runs: await inTurns(scenarios, (result) => result.rps) });
  }
  return results;
}

// 3. List latency. The 200 deep pages cover 10,000 sessions of the million but overlap on the thousand, so
// the pages differ in more than the store's size; the 19 full pages of a thousand sessions, spread the
// same way over each store, hold 950 sessions on both, so that only the number in the store differs.
const evenPages = 19;
const latencyKinds = [
  'first page',
  `${evenPages} pages in turn`,
  `${deepPages} pages in turn`,
  `${deepPages} pages in turn, --kept-sessions 0`,
];

async function listLatency(stores) {
  const scenarios = [];
  for (const [count, db] of stores) {
    const even = { ...latencyLoad, requests: await pagesInTurn(db, count, evenPages) };
    const deep = { ...latencyLoad, requests: await pagesInTurn(db, count, deepPages) };
    const [first, few, kept, cold] = latencyKinds.map((kind) => `${count} sessions|${kind}`);
    scenarios.push(
      { name: first, run: () => measureServer(serve(db), '/v1/sessions?limit=50', latencyLoad) },
      { name: few, run: () => measureServer(serve(db), '/v1/sessions', even) },
      { name: kept, run: () => measureServer(serve(db), '/v1/sessions', deep) },
      { name: cold, run: () => measureServer(serve(db, 0), '/v1/sessions', deep) },
    );
  }
  return inTurns(scenarios, (result) => result.meanMs);
}

const small = await store(1000);
const large = await store(Number(options.sessions));
const sessionId = new Database(small, { readonly: true }).prepare('SELECT id FROM sessions LIMIT 1').pluck().get();

const parts = new Set(options.parts.split(','));
const lines = [machine(loadBefore)];
const ms = (value) => value.toFixed(0);

if (parts.has('start-up')) {
  progress('start-up');
  const starts = await startUps({
    folder: options.stores,
    large,
    count: options.sessions,
    runs: Number(options.startups),
  });
  lines.push('', `Start-up, ${options.startups} runs each, median (slowest):`, '');
  lines.push('| server | printed base_url ms | first 200 on health ms | CPU ms until then |', '|---|---:|---:|---:|');
  for (const [name, values] of starts) {
    const column = (key) => {
      const each = values.map((value) => value[key]).filter((value) => value !== undefined);
      return each.length === 0 ? '' : `${ms(median(each))} (${ms(Math.max(...each))})`;
    };
    lines.push(`| ${name} | ${column('printedMs')} | ${column('healthyMs')} | ${column('cpuMs')} |`);
  }
}

if (parts.has('throughput')) {
  progress('throughput');
  const rates = await throughput(small, sessionId);
  const { connections } = throughputLoad;
  lines.push(
    '',
    `Throughput, ${connections} connections, ${duration} s after ${warmup} s of warm-up, median of ${rounds} rounds:`,
    '',
  );
  lines.push(
    '| operation | server | bytes per answer | req/s | p50 ms | p99 ms | vs bare Fastify | vs prism | CPU ms per request | req/s of each round |',
  );
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const { operation, runs } of rates) {
    const bare = runs.get('bare Fastify (baseline)').rps;
    const mock = runs.get('prism (same JSON)').rps;
    for (const [name, r] of runs) {
      const each = r.each.map((round) => Math.round(round.rps)).join(', ');
      const row = [
        operation,
        name,
        r.bytes,
        Math.round(r.rps),
        r.p50,
        r.p99,
        (r.rps / bare).toFixed(2),
        (r.rps / mock).toFixed(1),
        r.cpuMs.toFixed(3),
        each,
      ];
      lines.push(`| ${row.join(' | ')} |`);
    }
  }
}

if (parts.has('latency')) {
  progress('list latency');
  const latencies = await listLatency([
    [1000, small],
    [Number(options.sessions), large],
  ]);
  lines.push(
    '',
    `List latency (limit=50), ${latencyLoad.connections} connections, median of ${rounds} rounds by mean:`,
    '',
  );
  lines.push(
    '| store | pages | req/s | mean ms | p50 ms | p99 ms | p50 of each round |',
    '|---|---|---:|---:|---:|---:|---|',
  );
  for (const [name, r] of latencies) {
    const [count, pages] = name.split('|');
    lines.push(
      `| ${count} | ${pages} | ${Math.round(r.rps)} | ${r.meanMs.toFixed(2)} | ${r.p50} | ${r.p99} | ${r.each.map((round) => round.p50).join(', ')} |`,
    );
  }
  const ratio = (kind) => {
    const few = latencies.get(`1000 sessions|${kind}`);
    const many = latencies.get(`${options.sessions} sessions|${kind}`);
    return `${kind}: mean ${(many.meanMs / few.meanMs).toFixed(2)}×, p99 ${(many.p99 / Math.max(few.p99, 1)).toFixed(2)}×`;
  };
  lines.push('', `Latency of ${options.sessions} against 1000 sessions: ${latencyKinds.map(ratio).join('; ')}.`);
}
process.stdout.write(`${lines.join('\n')}\n`);
