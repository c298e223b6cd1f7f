/**
 * The HTTP client of the checks: every request and its response are recorded as an exchange (evidence for
 * the verdicts, input of the sweeps). Built on the global fetch (undici).
 * @module
 */
import { type Exchange, type ExchangeLog, headersOf, redactAuthorization } from './exchange.js';

/** How a request authenticates: a bearer key, nothing, or a literal Authorization value. */
export type Credentials = { kind: 'bearer'; key: string } | { kind: 'none' } | { kind: 'raw'; authorization: string };

export interface SendOptions {
  method?: string;
  /** Relative to the base URL, starting with `/`; may hold a query string. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Sent as `application/json`. */
  json?: unknown;
  /** A raw body; set Content-Type in `headers`. */
  body?: string;
  credentials?: Credentials;
  timeoutMs?: number;
  /** Wait out a 429 and send again (on by default, so quota never fails an unrelated check). */
  retryRateLimited?: boolean;
}

/** The request could not be completed (refused, reset, timed out); the exchange records why. */
export class TransportError extends Error {
  constructor(readonly exchange: Exchange) {
    super(`${exchange.request.method} ${exchange.request.url}: ${exchange.error ?? 'no response'}`);
    this.name = 'TransportError';
  }
}

export interface HttpClientConfig {
  baseUrl: string;
  log: ExchangeLog;
  /** Recorded on each exchange. */
  check: string;
  credentials: Credentials;
  defaultTimeoutMs: number;
  /** Real milliseconds to wait for a Retry-After of `seconds` (the target's clock may run faster). */
  realWaitMs: (seconds: number) => number;
  signal?: AbortSignal;
}

/** At most this many 429s are waited out per request, and never longer than this in all. */
const maxRateLimitRetries = 5;
const maxRateLimitWaitMs = 70_000;

export class HttpClient {
  constructor(readonly config: HttpClientConfig) {}

  /** The same client with other credentials (the anonymous or second-workspace view). */
  as(credentials: Credentials): HttpClient {
    return new HttpClient({ ...this.config, credentials });
  }

  /** The same client against another base URL. */
  withBaseUrl(baseUrl: string): HttpClient {
    return new HttpClient({ ...this.config, baseUrl });
  }

  /** The same client with another default time limit per request. */
  withTimeout(defaultTimeoutMs: number): HttpClient {
    return new HttpClient({ ...this.config, defaultTimeoutMs });
  }

  /** The same client recording under another check name. */
  forCheck(check: string, signal?: AbortSignal): HttpClient {
    return new HttpClient({ ...this.config, check, ...(signal === undefined ? {} : { signal }) });
  }

  url(path: string, query?: SendOptions['query']): string {
    const url = new URL(this.config.baseUrl.replace(/\/+$/, '') + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) {
        url.searchParams.set(name, String(value));
      }
    }
    return url.toString();
  }

  /** The Authorization header value of these credentials, if any. */
  authorization(credentials: Credentials = this.config.credentials): string | undefined {
    if (credentials.kind === 'bearer') {
      return `Bearer ${credentials.key}`;
    }
    return credentials.kind === 'raw' ? credentials.authorization : undefined;
  }

  async send(options: SendOptions): Promise<Exchange> {
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      const exchange = await this.#sendOnce(options);
      const retryAfter = Number(exchange.response?.headers['retry-after']);
      const retry =
        exchange.response?.status === 429 &&
        options.retryRateLimited !== false &&
        attempt < maxRateLimitRetries &&
        Number.isFinite(retryAfter);
      if (!retry) {
        return exchange;
      }
      const waitMs = this.config.realWaitMs(retryAfter) + 5;
      if (waited + waitMs > maxRateLimitWaitMs) {
        return exchange;
      }
      waited += waitMs;
      await delay(waitMs, this.config.signal);
    }
  }

  get(path: string, options: Omit<SendOptions, 'path' | 'method'> = {}): Promise<Exchange> {
    return this.send({ ...options, method: 'GET', path });
  }

  post(path: string, json?: unknown, options: Omit<SendOptions, 'path' | 'method' | 'json'> = {}): Promise<Exchange> {
    return this.send({ ...options, method: 'POST', path, ...(json === undefined ? {} : { json }) });
  }

  patch(path: string, json: unknown, options: Omit<SendOptions, 'path' | 'method' | 'json'> = {}): Promise<Exchange> {
    return this.send({ ...options, method: 'PATCH', path, json });
  }

  delete(path: string, options: Omit<SendOptions, 'path' | 'method'> = {}): Promise<Exchange> {
    return this.send({ ...options, method: 'DELETE', path });
  }

  async #sendOnce(options: SendOptions): Promise<Exchange> {
    const method = options.method ?? 'GET';
    const url = this.url(options.path, options.query);
    const headers: Record<string, string> = {};
    const authorization = this.authorization(options.credentials);
    if (authorization !== undefined) {
      headers['authorization'] = authorization;
    }
    let body: string | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      headers[name.toLowerCase()] = value;
    }
    const recordedHeaders = { ...headers };
    if (recordedHeaders['authorization'] !== undefined) {
      recordedHeaders['authorization'] = redactAuthorization(recordedHeaders['authorization']);
    }
    const exchange: Exchange = {
      id: this.config.log.nextId(),
      check: this.config.check,
      request: {
        method,
        url,
        headers: recordedHeaders,
        ...(body === undefined ? {} : { body }),
      },
      startedAt: Date.now(),
      durationMs: 0,
    };
    const timeout = AbortSignal.timeout(options.timeoutMs ?? this.config.defaultTimeoutMs);
    const signal = this.config.signal === undefined ? timeout : AbortSignal.any([timeout, this.config.signal]);
    try {
      const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }), signal });
      const text = await response.text();
      exchange.response = { status: response.status, headers: headersOf(response.headers), body: text };
    } catch (error) {
      exchange.error = describeFetchError(error, timeout.aborted);
    }
    exchange.durationMs = Date.now() - exchange.startedAt;
    this.config.log.add(exchange);
    if (exchange.response === undefined) {
      throw new TransportError(exchange);
    }
    return exchange;
  }
}

function describeFetchError(error: unknown, timedOut: boolean): string {
  if (timedOut) {
    return 'timed out';
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** Waits `ms` real milliseconds, or less when `signal` aborts. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
