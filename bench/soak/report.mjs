/**
 * The soak's printout: the figures docs/reliability.md records, and a failing exit code when any answer
 * was outside its kind's expected statuses or any request failed.
 */
import { machine } from '../support/autocannon.mjs';

const ms = (value) => value.toFixed(1);

/** Prints the run (`settings`: what it ran with; `cost`: the held-open connections, when measured). */
export function printReport(result, cost, settings) {
  const { loadBefore, seed, timeScale, durationS, rate, connections } = settings;
  console.log(`${machine(loadBefore)}; seed ${seed}`);
  console.log(
    `boardkit serve --time-scale ${timeScale}, ${durationS} s at ${rate} requests/s (open loop), ${result.keys} workspaces`,
  );
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
}
