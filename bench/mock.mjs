#!/usr/bin/env node
/**
 * Throughput of the mock, measured with autocannon over loopback, on two requests:
 * - `GET /v1/sessions/{id}`: a plain read, the `running` example;
 * - `POST /v1/sessions`: a start with the contract's `variant_a` request body, which Prism validates
 *   against the `oneOf` of the start request before it answers `202`;
 * against two baselines measured in the same run on the same machine:
 * - `node:http`: a bare Node server answering the same example body, the ceiling of an HTTP server here;
 * - `prism (contract)`: Prism alone on the bundled contract as it is, the tool the mock wraps.
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
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launch, loadNow, machine, measureServer, median, prismCli, root } from './support/autocannon.mjs';

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

const contract = JSON.parse(readFileSync(join(root, 'openapi/dist/openapi.json'), 'utf8'));
const example = (name) => {
  const value = contract.components.examples[name]?.value;
  if (value === undefined) {
    throw new Error(`The contract has no ${name} example`);
  }
  return value;
};
const authorization = 'Bearer sk_test_4eC39HqLyjWDarjtT1zdp7dc';

const workloads = [
  {
    name: 'GET /v1/sessions/{id}',
    path: '/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E',
    load: { headers: { Authorization: authorization } },
    baselineBody: example('SessionRunning'),
  },
  {
    name: 'POST /v1/sessions (body validated)',
    path: '/v1/sessions',
    load: {
      requests: [
        {
          method: 'POST',
          path: '/v1/sessions',
          headers: { Authorization: authorization, 'Content-Type': 'application/json' },
          body: JSON.stringify(example('StartRequestVariantA')),
        },
      ],
    },
    baselineBody: example('StartResponseVariantA1'),
  },
];

const prism = prismCli();
const scenarios = (workload) => [
  [
    'node:http (baseline)',
    (port) =>
      launch(['bench/support/static-server.mjs'], port, {
        BODY: JSON.stringify(workload.baselineBody),
        PORT: String(port),
      }),
  ],
  [
    'prism (contract)',
    (port) => launch([prism.script, 'mock', 'openapi/dist/openapi.json', ...prism.flags, '--port', `${port}`], port),
  ],
  ['boardkit mock', (port) => launch(['bin/boardkit.js', 'mock', '--port', String(port)], port)],
];

const loadBefore = loadNow();
const tables = [];
for (const workload of workloads) {
  const runs = new Map(scenarios(workload).map(([name]) => [name, []]));
  for (let round = 1; round <= rounds; round += 1) {
    for (const [name, start] of scenarios(workload)) {
      const result = {
        name,
        ...(await measureServer(start, workload.path, { connections, duration, warmup, ...workload.load })),
      };
      runs.get(name).push(result);
      const cpuMs = result.cpuMs.toFixed(3);
      process.stderr.write(
        `${workload.name}, round ${round}: ${name} ${Math.round(result.rps)} req/s, ${cpuMs} CPU ms per request\n`,
      );
    }
  }
  const results = [...runs.values()].map((each) => median(each, (result) => result.rps));
  const [baseline, prismAlone] = results.map((result) => result.rps);
  tables.push(
    [
      `${workload.name}`,
      '',
      '| server | req/s | p50 ms | p99 ms | requests | vs node:http | vs prism | CPU ms per request | req/s of each round |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---|',
      ...results.map((r) => {
        const each = runs.get(r.name).map((one) => Math.round(one.rps));
        const ratio = (of) => (r.rps / of).toFixed(3);
        return `| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.total} | ${ratio(baseline)} | ${ratio(prismAlone)} | ${r.cpuMs.toFixed(3)} | ${each.join(', ')} |`;
      }),
    ].join('\n'),
  );
}
const header = [
  `${connections} connections, ${duration} s after ${warmup} s of warm-up, loopback, median of ${rounds} rounds`,
  machine(loadBefore),
];
process.stdout.write(`${[...header, '', tables.join('\n\n')].join('\n')}\n`);
