/**
 * Session fixtures: start bodies for both request variants, recognising the start response variant, and
 * waiting for a session to reach a state (by long-polling, as the seed's clients do).
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { CheckContext } from './check.js';
import type { Contract } from './contract.js';
import { type Exchange, jsonOf } from './exchange.js';
import { type HttpClient, TransportError } from './http.js';
import { SetupFailure } from './observations.js';
import type { StartVariant } from './profiles.js';

export type SessionBody = Record<string, unknown> & { id?: string; status?: string };

/** Slugs of the published library, used when the target's own list is not known. */
const fallbackLineup = ['cfo', 'skeptic', 'growth_lead', 'general_counsel'];

export const terminalStatuses = new Set(['complete', 'failed', 'cancelled', 'reconvened', 'archived']);

/** A marker unique to this run and purpose, put in titles so data can be recognised anywhere. */
export function marker(purpose: string): string {
  return `conformance ${purpose} ${randomUUID().slice(0, 8)}`;
}

export function lineupOf(synths: readonly string[], size = 3): string[] {
  const pool = synths.length >= size ? synths : fallbackLineup;
  return pool.slice(0, size);
}

/** A board-lineup start (request variant A). */
export function startBodyA(synths: readonly string[], title = marker('session'), rounds = 2): Record<string, unknown> {
  return {
    mode: 'boardroom',
    title,
    context: `${title}: a conformance run checks the API; the board weighs a small pricing change.`,
    synths: lineupOf(synths),
    rounds,
  };
}

/** A decision-brief start (request variant B). */
export function startBodyB(
  question = `${marker('brief')}: should we raise the Pro plan price by 5%?`,
): Record<string, unknown> {
  return { question, session_type: 'boardroom', mode: 'boardroom' };
}

const variantSchemas: ReadonlyArray<[StartVariant, string]> = [
  ['A1', '#/components/schemas/StartSessionResponseA1'],
  ['A2', '#/components/schemas/StartSessionResponseA2'],
  ['B', '#/components/schemas/StartSessionResponseB'],
];

/** Which published start response `body` is, or `undefined`. */
export function startVariantOf(contract: Contract, body: unknown): StartVariant | undefined {
  return variantSchemas.find(([, pointer]) => contract.validator.validate(pointer, body).valid)?.[0];
}

export function sessionIdOf(body: unknown): string | undefined {
  const record = (body ?? {}) as { session_id?: unknown; id?: unknown };
  const id = record.session_id ?? record.id;
  return typeof id === 'string' ? id : undefined;
}

export interface StartedSession {
  id: string;
  exchange: Exchange;
  variant: StartVariant | undefined;
}

export async function startSession(
  client: HttpClient,
  contract: Contract,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<StartedSession> {
  const exchange = await client.post('/v1/sessions', body, { headers });
  const status = exchange.response?.status ?? 0;
  const json = jsonOf(exchange);
  const id = sessionIdOf(json);
  if (status < 200 || status > 299 || id === undefined) {
    throw new SetupFailure(`starting a session answered ${status}`, exchange);
  }
  return { id, exchange, variant: startVariantOf(contract, json) };
}

/** Starts a board-lineup session (request variant A) of `rounds` rounds, titled with a new marker of `purpose`. */
export function startMarkedSession(
  ctx: Pick<CheckContext, 'http' | 'contract' | 'target'>,
  purpose: string,
  rounds: number,
): Promise<StartedSession> {
  return startSession(ctx.http, ctx.contract, startBodyA(ctx.target.synths, marker(purpose), rounds));
}

/** A marked session of `rounds` rounds, cancelled at once: one in a state that ends it, for what an ended session refuses. */
export async function startCancelledSession(
  ctx: Pick<CheckContext, 'http' | 'contract' | 'target'>,
  purpose: string,
  rounds: number,
): Promise<StartedSession> {
  const started = await startMarkedSession(ctx, purpose, rounds);
  await ctx.http.post(`/v1/sessions/${started.id}/cancel`, {});
  return started;
}

/** Whether a fresh request for `path` (a finished session's stream) ends by itself within the pace's wait. */
export async function endsByItself(ctx: Pick<CheckContext, 'http' | 'pace'>, path: string): Promise<boolean> {
  try {
    await ctx.http.get(path, { timeoutMs: ctx.pace.wait(5_000) });
    return true;
  } catch (error) {
    if (error instanceof TransportError) {
      return false;
    }
    throw error;
  }
}

/**
 * A one-round session titled after `purpose` with `count` numbered decisions captured on it, for the
 * checks that walk its lists; `afterEach` makes another item (a share link) after each decision, so the
 * session's lists fill in step.
 */
export async function sessionWithDecisions(
  ctx: Pick<CheckContext, 'http' | 'contract' | 'target'>,
  purpose: string,
  count: number,
  afterEach: (sessionId: string) => Promise<unknown> = async () => undefined,
): Promise<StartedSession> {
  const session = await startMarkedSession(ctx, purpose, 1);
  for (let index = 0; index < count; index++) {
    await ctx.http.post(`/v1/sessions/${session.id}/decisions`, {
      decision: `Decision ${index + 1} of a conformance run.`,
    });
    await afterEach(session.id);
  }
  return session;
}

export async function readSession(
  client: HttpClient,
  id: string,
  query?: Record<string, number>,
): Promise<{ exchange: Exchange; session: SessionBody }> {
  const exchange = await client.get(`/v1/sessions/${id}`, query === undefined ? {} : { query });
  if (exchange.response?.status !== 200) {
    throw new SetupFailure(`reading session ${id} answered ${exchange.response?.status}`, exchange);
  }
  const session = (jsonOf(exchange) ?? {}) as SessionBody;
  // A read without the required `status` breaks the contract on the main read: no wait on it can end,
  // so the check stops here, in seconds, and the contract sweep judges the answer.
  if (typeof session.status !== 'string') {
    throw new SetupFailure(
      `reading session ${id} answered without the required status, so no wait on the session can end`,
      exchange,
    );
  }
  return { exchange, session };
}

/**
 * Long-polls the session until `ready` holds or `timeoutMs` of real time pass. Each poll asks the target
 * to hold for at most the remaining real time, up to 5 s: `wait_ms` is wall-clock time whatever the
 * target's time scale (docs/decisions.md "Time and other implementations").
 */
export async function waitForSession(
  client: HttpClient,
  id: string,
  ready: (session: SessionBody) => boolean,
  timeoutMs: number,
): Promise<SessionBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const remaining = deadline - Date.now();
    const waitMs = Math.max(0, Math.floor(Math.min(remaining, 5_000)));
    const { session } = await readSession(client, id, { wait_ms: waitMs });
    if (ready(session)) {
      return session;
    }
    if (Date.now() >= deadline) {
      throw new SetupFailure(
        `session ${id} stayed ${session.status ?? 'unknown'} for ${Math.round(timeoutMs / 1000)} s`,
      );
    }
  }
}

/** Long-polls the session until it has ended, however it ended, within the run's session timeout. */
export function waitUntilEnded(ctx: Pick<CheckContext, 'http' | 'timeouts'>, id: string): Promise<SessionBody> {
  return waitForSession(
    ctx.http,
    id,
    (session) => terminalStatuses.has(String(session.status)),
    ctx.timeouts.sessionMs,
  );
}

/** Cancels a session the check no longer needs, so runs do not spend credits; failures are ignored. */
export async function discard(client: HttpClient, id: string): Promise<void> {
  await client.post(`/v1/sessions/${id}/cancel`, {}).catch(() => undefined);
}

/**
 * Cancels the session a start that should have been refused (a short balance, a lower tier) made all the
 * same, when its answer names one.
 */
export async function discardStarted(client: HttpClient, answer: Exchange): Promise<void> {
  const id = sessionIdOf(jsonOf(answer));
  if (id !== undefined) {
    await discard(client, id);
  }
}

/** A consult start (seed "What the service does" 4): one named expert, who answers turn by turn. */
export async function startConsult(
  ctx: Pick<CheckContext, 'target'>,
  http: HttpClient,
): Promise<{ id: string; expert: string }> {
  const expert = ctx.target.synths[0] ?? 'cfo';
  const answer = await http.post('/v1/sessions', {
    question: `${marker('consult')}: where should we register for EU VAT?`,
    session_type: 'consult',
    synth_id: expert,
  });
  const id = sessionIdOf(jsonOf(answer));
  if (answer.response?.status !== 202 || id === undefined) {
    throw new SetupFailure(`a consult start answered ${answer.response?.status}`, answer);
  }
  return { id, expert };
}
