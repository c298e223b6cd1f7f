/**
 * Discovers what the target is before any check runs: reachable, the key accepted, a live implementation
 * or a mock, which published variants its health probe announces, and whether it offers the test-only
 * control plane (time control, fault switches).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { controlledClock, realTimeClock, type TargetClock } from './clock.js';
import { type Exchange, jsonOf } from './exchange.js';
import { type HttpClient, TransportError } from './http.js';
import { TestControl, testControlHeader } from './test-control.js';

/** The suite itself could not run (exit code 2): unreachable target, rejected key, bad options. */
export class SuiteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SuiteError';
  }
}

export interface RetryScheduleAnnouncement {
  waits_minutes: number[];
  max_attempts: number;
}

export interface Target {
  baseUrl: string;
  /** A real implementation that keeps state; a mock answers sessions it never created. */
  live: boolean;
  /** Why `live` was decided so, for reports and skip reasons. */
  liveEvidence: string;
  /** What the health probe announces (designed members of `Health`). */
  announced: {
    apiVersion?: string;
    eventList?: string[];
    retrySchedule?: RetryScheduleAnnouncement;
  };
  /** The test-only control plane, when the target offers it. */
  control: TestControl | undefined;
  clock: TargetClock;
  hasSecondKey: boolean;
  /** Synth slugs of the target's library (for lineups); empty when unknown. */
  synths: string[];
}

function bodyOf(exchange: Exchange): Record<string, unknown> {
  const body = jsonOf(exchange);
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

async function reach(client: HttpClient, path: string): Promise<Exchange> {
  try {
    return await client.get(path);
  } catch (error) {
    if (error instanceof TransportError) {
      throw new SuiteError(
        `The target at ${client.config.baseUrl} cannot be reached: ${error.exchange.error ?? error.message}`,
      );
    }
    throw error;
  }
}

/** A key the target refuses stops the run: every check would fail on it. */
async function checkKey(client: HttpClient, flag: string): Promise<void> {
  const probe = await reach(client, '/v1/sessions?limit=1');
  const status = probe.response?.status;
  if (status === 401 || status === 403) {
    throw new SuiteError(
      `${flag} was rejected: GET ${client.url('/v1/sessions')} answered ${status}; pass a key of a workspace of this deployment that may use the API`,
    );
  }
}

export interface DiscoveryClients {
  anonymous: HttpClient;
  keyA: HttpClient;
  keyB: HttpClient | undefined;
}

/**
 * Whether `exchange` is this API's health probe answering: the Health object (its `status` is required),
 * or a problem document refusing the request (a deployment that wrongly guards the probe is still this
 * API, and AUTH-004 judges it).
 */
function answersAsApi(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  const type = exchange.response?.headers['content-type'] ?? '';
  if (status === 200) {
    return typeof bodyOf(exchange)['status'] === 'string';
  }
  return (status === 401 || status === 403) && /json/i.test(type);
}

/** What the health probe answered, in a few words. */
function described(exchange: Exchange): string {
  const response = exchange.response;
  return response === undefined
    ? (exchange.error ?? 'no answer')
    : `${response.status} ${response.headers['content-type'] ?? 'without a Content-Type'}`;
}

/** The base URLs to try when `baseUrl` is not the API's: the same host with fewer path segments. */
function shorterBaseUrls(baseUrl: string): string[] {
  const url = new URL(baseUrl);
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  return segments.map((_, index) =>
    `${url.origin}/${segments.slice(0, segments.length - 1 - index).join('/')}`.replace(/\/$/, ''),
  );
}

/**
 * Checks that `/v1/health` under the base URL is this API's before anything else runs, so a wrong base
 * URL stops in seconds with the likely fix instead of failing every check (`/v1/v1/health`).
 */
async function checkBaseUrl(anonymous: HttpClient): Promise<Exchange> {
  const baseUrl = anonymous.config.baseUrl;
  const health = await reach(anonymous, '/v1/health');
  if (answersAsApi(health)) {
    return health;
  }
  const problem = `GET ${anonymous.url('/v1/health')} answered ${described(health)}, not the API's health probe`;
  for (const candidate of shorterBaseUrls(baseUrl)) {
    const probe = await anonymous
      .as({ kind: 'none' })
      .withBaseUrl(candidate)
      .get('/v1/health')
      .catch(() => undefined);
    if (probe !== undefined && answersAsApi(probe)) {
      throw new SuiteError(
        `${problem}. The base URL has a path prefix too many: ${candidate}/v1/health answers, so use --target ${candidate}`,
      );
    }
  }
  const html = /html/i.test(health.response?.headers['content-type'] ?? '');
  throw new SuiteError(
    `${problem}. ${html ? 'The host serves web pages there: it does not look like the Decision-Board API. ' : ''}--target is the {base_url} under which /v1/health answers: if the API lives under a path prefix, include it (e.g. --target https://host/prefix), without the /v1`,
  );
}

export async function discoverTarget({ anonymous, keyA, keyB }: DiscoveryClients): Promise<Target> {
  const baseUrl = anonymous.config.baseUrl;
  const health = await checkBaseUrl(anonymous);
  const announced: Target['announced'] = {};
  const healthBody = bodyOf(health);
  if (typeof healthBody['api_version'] === 'string') {
    announced.apiVersion = healthBody['api_version'];
  }
  if (Array.isArray(healthBody['webhook_event_list'])) {
    announced.eventList = healthBody['webhook_event_list'].map(String);
  }
  const schedule = healthBody['webhook_retry_schedule'] as RetryScheduleAnnouncement | undefined;
  if (Array.isArray(schedule?.waits_minutes) && typeof schedule.max_attempts === 'number') {
    announced.retrySchedule = { waits_minutes: schedule.waits_minutes, max_attempts: schedule.max_attempts };
  }

  const controlPath = health.response?.headers[testControlHeader];
  let control: TestControl | undefined;
  let clock = realTimeClock();
  if (controlPath !== undefined && controlPath !== '') {
    const candidate = new TestControl(baseUrl, controlPath);
    try {
      clock = await controlledClock(candidate);
      control = candidate;
    } catch (error) {
      throw new SuiteError(
        `The target announces test control at ${candidate.url}, but it does not answer: ${(error as Error).message}`,
      );
    }
  }

  await checkKey(keyA, '--api-key');
  if (keyB !== undefined) {
    await checkKey(keyB, '--api-key-b');
  }

  // A session id that was never created: a live implementation answers 404, a mock its example (200).
  const neverCreated = `ses_${randomBytes(16).toString('hex').slice(0, 26)}`;
  const liveProbe = await reach(keyA, `/v1/sessions/${neverCreated}`);
  const probeStatus = liveProbe.response?.status;
  const live = probeStatus !== 200;
  const liveEvidence = `GET /v1/sessions/${neverCreated}, a session never created, answered ${probeStatus}`;

  let synths: string[] = [];
  if (live) {
    const library = await reach(keyA, '/synths?limit=100');
    const items = bodyOf(library)['items'];
    synths = Array.isArray(items)
      ? items.map((item) => String((item as { slug?: unknown }).slug)).filter((slug) => slug !== 'undefined')
      : [];
  }
  return { baseUrl, live, liveEvidence, announced, control, clock, hasSecondKey: keyB !== undefined, synths };
}
