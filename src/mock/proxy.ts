/**
 * Prism's validation proxy in front of any implementation of the contract: it forwards every request to
 * the upstream and checks the request and the response against the bundled contract (the contract
 * itself, not the mock document). Each violation is logged under the `Forwarding "<method>" request to
 * <url>` line of its request, and listed in the response's `sl-violations` header.
 *
 * `-v info` so that those request lines are printed: without them a violation cannot be traced to its
 * request. With `errors`, Prism answers an invalid request itself instead of forwarding it, and replaces
 * an invalid response by `500 …#VIOLATIONS` listing what is wrong (Prism docs, "Validation proxy").
 * @module
 */
import { bundledJson } from '../contract/paths.js';
import { startPrism, type PrismOutput, type PrismProcess } from './prism.js';

export const defaultProxyHost = '127.0.0.1';
export const defaultProxyPort = 4011;

export interface ProxyOptions {
  /** The implementation's base URL (its `{base_url}`), e.g. `http://127.0.0.1:8080`. */
  upstream: string;
  host?: string;
  port?: number;
  errors?: boolean;
  output?: PrismOutput;
  /** The bundled contract file to validate against (default: the package's own). */
  contractFile?: string;
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

export function startProxy(options: ProxyOptions): Promise<PrismProcess> {
  const upstream = parseUpstream(options.upstream);
  const flags = ['-v', 'info', ...(options.errors === true ? ['--errors'] : [])];
  return startPrism({
    args: ['proxy', options.contractFile ?? bundledJson, upstream, ...flags],
    host: options.host ?? defaultProxyHost,
    port: options.port ?? defaultProxyPort,
    output: options.output ?? 'pipe',
  });
}
