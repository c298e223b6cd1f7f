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
      throw new SuiteError(`The target at ${client.config.baseUrl} cannot be reached: ${error.exchange.error ?? error.message}`);
    }
    throw error;
  }
}

export interface DiscoveryClients {
  anonymous: HttpClient;
  keyA: HttpClient;
  keyB: HttpClient | undefined;
}

export async function discoverTarget({ anonymous, keyA, keyB }: DiscoveryClients): Promise<Target> {
  const baseUrl = anonymous.config.baseUrl;
  const health = await reach(anonymous, '/v1/health');
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
      throw new SuiteError(`The target announces test control at ${candidate.url}, but it does not answer: ${(error as Error).message}`);
    }
  }

  const keyProbe = await reach(keyA, '/v1/sessions?limit=1');
  if (keyProbe.response?.status === 401) {
    throw new SuiteError('--api-key was rejected: GET /v1/sessions answered 401');
  }
  if (keyB !== undefined) {
    const probeB = await reach(keyB, '/v1/sessions?limit=1');
    if (probeB.response?.status === 401) {
      throw new SuiteError('--api-key-b was rejected: GET /v1/sessions answered 401');
    }
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
    synths = Array.isArray(items) ? items.map((item) => String((item as { slug?: unknown }).slug)).filter((slug) => slug !== 'undefined') : [];
  }
  return { baseUrl, live, liveEvidence, announced, control, clock, hasSecondKey: keyB !== undefined, synths };
}
