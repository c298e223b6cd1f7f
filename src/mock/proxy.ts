/**
 * The validation proxy in front of any implementation of the contract (`boardkit proxy`): it relays
 * every request to the upstream and every answer back, checking both against the bundled contract on
 * the way (the contract itself, not the mock document), event streams event by event as they pass
 * (`proxy/relay.ts`). It keeps the run's record (`proxy/traffic.ts`) for the report it ends with
 * (`proxy/report.ts`), and watches whether the upstream is still there (`proxy/upstream-watch.ts`).
 * @module
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { loadContract, type OpenApiDocument } from '../contract/load.js';
import { listOperations } from '../contract/operations.js';
import { bundledJson, packageJson } from '../contract/paths.js';
import { problemTypes } from '../contract/problem-types.js';
import { createContractValidator } from '../contract/validator.js';
import { prismOperations } from './engine.js';
import { baseUrlOf, type PrismOutput } from './prism.js';
import { createCoverageTally } from './proxy/coverage.js';
import { violationKinds, type ViolationKind } from './proxy/findings.js';
import { createRelay } from './proxy/relay.js';
import { buildReport, type ProxyReport, type StopReason } from './proxy/report.js';
import { createTraffic } from './proxy/traffic.js';
import { watchUpstream } from './proxy/upstream-watch.js';
import { createVariantFinder } from './proxy/variants-seen.js';
import { compileRoutes } from './routes.js';

export const defaultProxyHost = '127.0.0.1';
export const defaultProxyPort = 4011;

/** The latest log kept for `output()` when it is not printed (64 KiB). */
const outputLimit = 64 * 1024;

export interface ProxyOptions {
  /** The implementation's base URL (its `{base_url}`), e.g. `http://127.0.0.1:8080`. */
  upstream: string;
  host?: string;
  /** The port to listen on; 0 lets the system pick a free one (default 4011). */
  port?: number;
  errors?: boolean;
  /** Where violations are logged: the terminal's stderr, or a buffer kept for `output()`. */
  output?: PrismOutput;
  /** The bundled contract file to validate against (default: the package's own). */
  contractFile?: string;
  /** The violation kinds that fail the run (default: all of them). */
  failOn?: readonly ViolationKind[];
  /** The upstream has ended after this many consecutive failed attempts to reach it; 0 never (default). */
  upstreamGoneAfter?: number;
  /** How often the upstream is probed for `upstreamGoneAfter` (default 1 s). */
  probeIntervalMs?: number;
}

export interface RunningProxy {
  /** `http://host:port`, the address the proxy listens on. */
  baseUrl: string;
  /** The violation lines logged so far, when `output` is `pipe`. */
  output(): string;
  /** Resolves once the upstream has ended (see `upstreamGoneAfter`). */
  upstreamGone: Promise<void>;
  /** Stops listening, ends open streams, and returns the report of the run. */
  stop(reason?: StopReason): Promise<ProxyReport>;
}

/** The upstream as an absolute http(s) URL without a trailing slash, or an error saying what is wrong. */
export function parseUpstream(upstream: string): string {
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    throw new Error(`--upstream must be an absolute URL such as http://127.0.0.1:8080, got "${upstream}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`--upstream must be an http or https URL, got "${upstream}"`);
  }
  return url.href.replace(/\/$/, '');
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = parseUpstream(options.upstream);
  const document = loadContract(options.contractFile ?? bundledJson) as OpenApiDocument;
  // The bundled contract is checked against the meta-schema by the tests and `boardkit lint`.
  const validator = createContractValidator(document, { validateSchema: false });
  const variantFinder = createVariantFinder(document, validator);
  const failOn = [...(options.failOn ?? violationKinds)];
  const traffic = createTraffic(createCoverageTally(document, variantFinder.sets), failOn);
  const watch = watchUpstream(upstream, options.upstreamGoneAfter ?? 0, options.probeIntervalMs);
  let logged = '';
  const relay = createRelay({
    upstream,
    contract: { document, validator },
    routes: compileRoutes(document),
    operations: new Map(
      listOperations(document).map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry]),
    ),
    prismOperations: await prismOperations(document),
    catalogue: problemTypes(document),
    findVariants: (pointer, value) => variantFinder.find(pointer, value),
    traffic,
    errors: options.errors === true,
    log: (line) => {
      if (options.output === 'inherit') {
        process.stderr.write(line);
      } else {
        logged = (logged + line).slice(-outputLimit);
      }
    },
    reached: (answered) => watch.attempt(answered),
  });
  const server = createServer((incoming, outgoing) => {
    relay(incoming, outgoing).catch((error: unknown) => {
      const detail = `The proxy failed to relay: ${error instanceof Error ? error.message : String(error)}`;
      if (outgoing.headersSent) {
        outgoing.destroy();
      } else {
        outgoing.writeHead(502, { 'content-type': 'application/problem+json' });
        outgoing.end(JSON.stringify({ type: 'about:blank', title: 'Bad Gateway', status: 502, detail }));
      }
    });
  });
  const host = options.host ?? defaultProxyHost;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? defaultProxyPort, host, () => resolve());
  });
  const startedAt = new Date();
  const baseUrl = baseUrlOf(host, (server.address() as AddressInfo).port);
  let report: Promise<ProxyReport> | undefined;
  return {
    baseUrl,
    output: () => logged,
    upstreamGone: watch.gone,
    stop(reason = 'stopped') {
      report ??= new Promise<void>((closed) => {
        watch.stop();
        server.closeAllConnections();
        server.close(() => closed());
      }).then(() =>
        buildReport({
          traffic,
          tool: { name: 'boardkit proxy', version: packageVersion() },
          contractVersion: document.info.version,
          upstream,
          proxy: baseUrl,
          startedAt,
          endedAt: new Date(),
          stoppedBy: reason,
          failOn,
        }),
      );
      return report;
    },
  };
}
