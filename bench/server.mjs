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
 *    the pages it sent until a session is written, so the list is measured twice: the same page over
 *    and over, and 200 pages in turn, none sent twice in a row, each read from the store.
 * 3. List latency on a thousand and on a million sessions, the first page and deep pages reached by
 *    cursor, 200 of them spread over the list and never the same twice in a row, so that each is read
 *    from the store rather than the server's pages in memory (target: the million within 1.5 times the
 *    thousand).
 *
 *   npm run build && node bench/server.mjs [--duration 10] [--connections 16] [--warmup 3] [--rounds 3]
 *     [--latency-connections 4] [--startups 5] [--sessions 1000000] [--stores DIR]
 *     [--parts start-up,throughput,latency]
 *
 * The stores are seeded once by bench/support/seed-sessions.mjs into DIR (default: the OS's temporary
 * folder) and reused while their marker file says they hold the count (delete DIR to seed them again,
 * say after the session record changed). The server runs at `--time-scale 1000`: the reads bucket
 * (3,000 a minute) then refills every 60 ms, so the limiter still counts every request but never refuses
 * one. Scenarios take turns for several rounds so that a change in the machine's load hits all of them;
 * each line is the round with the median. The figures go into docs/benchmarks.md.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { cpuSeconds, freePort, launch, loadNow, machine, measureServer, median, prismCli, root } from './support/autocannon.mjs';
import { seedKey, seedSessions } from './support/seed-sessions.mjs';

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

const serve = (db) => (port) =>
  launch(['bin/boardkit.js', 'serve', '--port', String(port), '--db', db, '--api-key', seedKey, '--time-scale', '1000'], port);
const bareFastify = (body) => (port) => launch(['bench/support/bare-fastify.mjs'], port, { BODY: body, PORT: String(port) });
const prism = prismCli();
const prismMock = (document) => (port) => launch([prism.script, 'mock', document, ...prism.flags, '--port', `${port}`], port);

/**
 * The bundled contract with the server's own answers as the only examples of the measured operations,
 * written into the stores folder: Prism then sends the same JSON as the server and the bare route (the
 * contract's own examples are a single session and a two-session page, far less to send than fifty).
 */
function mockDocument(answers) {
  const document = JSON.parse(readFileSync(join(root, 'openapi/dist/openapi.json'), 'utf8'));
  for (const { template, body } of answers) {
    const media = document.paths[template].get.responses['200'].content['application/json'];
    delete media.example;
    media.examples = { server: { summary: 'The reference server\'s answer', value: JSON.parse(body) } };
  }
  const file = join(options.stores, 'prism-mock.json');
  writeFileSync(file, JSON.stringify(document));
  return file;
}

/** Runs each scenario once a round and keeps, per scenario, the round with the median of `key`. */
async function inTurns(scenarios, key) {
  const runs = new Map(scenarios.map((scenario) => [scenario.name, []]));
  for (let round = 1; round <= rounds; round += 1) {
    for (const scenario of scenarios) {
      const result = await scenario.run();
      runs.get(scenario.name).push(result);
      progress(`round ${round}: ${scenario.name}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`);
    }
  }
  return new Map([...runs].map(([name, each]) => [name, { ...median(each, key), each }]));
}

// 1. Start-up.
async function startUp(args, port, ready, env = {}) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
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
      const status = await fetch(`http://127.0.0.1:${port}${ready}`).then((response) => response.status, () => 0);
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

async function startUps(large) {
  const fresh = join(options.stores, 'fresh.db');
  const removeFresh = () => ['', '-wal', '-shm'].forEach((suffix) => rmSync(`${fresh}${suffix}`, { force: true }));
  const scenarios = [
    ['node:http (baseline)', (port) => startUp(['bench/support/static-server.mjs'], port, '/', { PORT: String(port) })],
    ['boardkit serve, fresh store', (port) => (removeFresh(), startUp(serveArgs(fresh, port), port, '/v1/health'))],
    [`boardkit serve, ${options.sessions} sessions`, (port) => startUp(serveArgs(large, port), port, '/v1/health')],
  ];
  const samples = new Map(scenarios.map(([name]) => [name, []]));
  for (let run = 0; run < Number(options.startups); run += 1) {
    for (const [name, start] of scenarios) {
      samples.get(name).push(await start(await freePort()));
    }
  }
  removeFresh();
  return samples;
}

function serveArgs(db, port) {
  return ['bin/boardkit.js', 'serve', '--port', String(port), '--db', db];
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
  // Pages at 200 positions spread over the list, each reached by its cursor, one after another across
  // all connections: the server keeps at most 100 pages (src/server/store/sessions.ts), so none is sent
  // from memory and every answer reads its fifty records from the store.
  const everyPage = await distinctPages(small, 1000);
  const paths = [
    ['GET /v1/sessions/{id}', '/v1/sessions/{id}', `/v1/sessions/${sessionId}`],
    ['GET /v1/sessions?limit=50', '/v1/sessions', '/v1/sessions?limit=50'],
  ];
  const answers = [];
  for (const [operation, template, path] of paths) {
    answers.push({ operation, template, path, body: await capture(small, path) });
  }
  const document = mockDocument(answers);
  const results = [];
  for (const { operation, template, path, body } of answers) {
    const scenarios = [
      { name: 'bare Fastify (baseline)', run: () => measureServer(bareFastify(body), path, throughputLoad) },
      { name: 'prism (same JSON)', run: () => measureServer(prismMock(document), path, throughputLoad) },
      { name: 'boardkit serve', run: () => measureServer(serve(small), path, throughputLoad) },
    ];
    if (template === '/v1/sessions') {
      const load = { ...throughputLoad, requests: everyPage };
      scenarios.push({ name: 'boardkit serve, no page twice', run: () => measureServer(serve(small), path, load) });
    }
    results.push({ operation, runs: await inTurns(scenarios, (result) => result.rps) });
  }
  return results;
}

/**
 * Requests for list pages at 200 positions spread over the first `count - 50` sessions (each a full page
 * of 50), handed out in turn to whichever connection asks next, so that no page repeats within 200 answers.
 */
async function distinctPages(db, count) {
  const offsets = Array.from({ length: 200 }, (_, index) => Math.floor((index * (count - 50)) / 200));
  const paths = (await cursorsAt(db, offsets)).map((cursor) => `/v1/sessions?limit=50&cursor=${cursor}`);
  let next = 0;
  return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }];
}

// 3. List latency.
async function cursorsAt(db, offsets) {
  const { cursorCodec } = await import(join(root, 'lib/src/server/pagination.js'));
  const database = new Database(db, { readonly: true });
  try {
    const secret = database.prepare("SELECT value FROM meta WHERE key = 'cursor_secret'").pluck().get();
    const codec = cursorCodec(Buffer.from(secret, 'hex'));
    // One walk down the list's index (the store holds one workspace), taking the rows at the offsets.
    const rows = database
      .prepare(
        `SELECT workspace_id, created_at, id FROM sessions WHERE workspace_id = (SELECT workspace_id FROM sessions LIMIT 1)
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .iterate(Math.max(...offsets) + 1);
    const wanted = new Set(offsets);
    const cursors = new Map();
    let offset = 0;
    for (const row of rows) {
      if (wanted.has(offset)) {
        // The list name and position are the server's (src/server/handlers/sessions.ts); a wrong guess is a 404.
        cursors.set(offset, codec.encode(`sessions:${row.workspace_id}`, { createdAt: row.created_at, id: row.id }));
      }
      offset += 1;
    }
    return offsets.map((at) => cursors.get(at));
  } finally {
    database.close();
  }
}

async function listLatency(stores) {
  const scenarios = [];
  for (const [count, db] of stores) {
    // Pages at 200 positions spread over the whole list, none twice in a row: each read from the store.
    const deep = await distinctPages(db, count);
    scenarios.push(
      { name: `${count} sessions, first page`, run: () => measureServer(serve(db), '/v1/sessions?limit=50', latencyLoad) },
      { name: `${count} sessions, deep pages`, run: () => measureServer(serve(db), '/v1/sessions', { ...latencyLoad, requests: deep }) },
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
  const starts = await startUps(large);
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
  lines.push('', `Throughput, ${connections} connections, ${duration} s after ${warmup} s of warm-up, median of ${rounds} rounds:`, '');
  lines.push('| operation | server | bytes per answer | req/s | p50 ms | p99 ms | vs bare Fastify | vs prism | CPU ms per request | req/s of each round |');
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const { operation, runs } of rates) {
    const bare = runs.get('bare Fastify (baseline)').rps;
    const mock = runs.get('prism (same JSON)').rps;
    for (const [name, r] of runs) {
      const each = r.each.map((round) => Math.round(round.rps)).join(', ');
      const row = [operation, name, r.bytes, Math.round(r.rps), r.p50, r.p99, (r.rps / bare).toFixed(2), (r.rps / mock).toFixed(1), r.cpuMs.toFixed(3), each];
      lines.push(`| ${row.join(' | ')} |`);
    }
  }
}

if (parts.has('latency')) {
  progress('list latency');
  const latencies = await listLatency([[1000, small], [Number(options.sessions), large]]);
  lines.push('', `List latency (limit=50), ${latencyLoad.connections} connections, median of ${rounds} rounds by mean:`, '');
  lines.push('| store | pages | req/s | mean ms | p50 ms | p99 ms | p50 of each round |', '|---|---|---:|---:|---:|---:|---|');
  for (const [name, r] of latencies) {
    const [count, pages] = name.split(', ');
    lines.push(`| ${count} | ${pages} | ${Math.round(r.rps)} | ${r.meanMs.toFixed(2)} | ${r.p50} | ${r.p99} | ${r.each.map((round) => round.p50).join(', ')} |`);
  }
  const ratio = (kind) => {
    const few = latencies.get(`1000 sessions, ${kind}`);
    const many = latencies.get(`${options.sessions} sessions, ${kind}`);
    return `${kind}: mean ${(many.meanMs / few.meanMs).toFixed(2)}×, p99 ${(many.p99 / Math.max(few.p99, 1)).toFixed(2)}×`;
  };
  lines.push('', `Latency of ${options.sessions} against 1000 sessions: ${ratio('first page')}; ${ratio('deep pages')}.`);
}
process.stdout.write(`${lines.join('\n')}\n`);
