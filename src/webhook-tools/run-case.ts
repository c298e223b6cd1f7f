/**
 * Runs one case of `boardkit webhooks check-receiver` against the receiver and judges it: each request
 * must get the case's answer within the attempt timeout, and where the receiver shows what it handled
 * (handled.ts), each delivery id of a `handledOnce` case must have been handled exactly once.
 * @module
 */
import type { Exchange } from '../../conformance/harness/exchange.js';
import type { Observation } from '../../conformance/harness/observations.js';
import type { PostResult } from '../webhooks/delivery-request.js';
import type { OutgoingDelivery } from './delivery.js';
import { handledCount } from './handled.js';
import type { CaseInput, ExpectedAnswer, ReceiverCase } from './receiver-case.js';

export interface CaseContext {
  url: string;
  handledUrl?: string | undefined;
  send(delivery: OutgoingDelivery): Promise<PostResult>;
  /** The id of the next exchange of the run. */
  nextId(): number;
}

export interface CaseRun {
  observations: Observation[];
  /** The status codes, `null` for no answer, in the order sent. */
  codes: Array<number | null>;
  evidence: Exchange[];
}

const failureKinds: Record<string, Observation['kind']> = {
  'RECV-002': 'duplicate',
  'RECV-004': 'timestamp',
  'RECV-005': 'header',
  'RECV-010': 'sequence',
  'RECV-011': 'duplicate',
  'RECV-012': 'timing',
  'RECV-013': 'variant',
};

function answered(expect: ExpectedAnswer, code: number | null): boolean {
  return code !== null && (expect === '2xx' ? code >= 200 && code <= 299 : code === expect);
}

function lowerCased(headers: Readonly<Record<string, unknown>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]),
  );
}

function exchangeOf(id: number, check: string, url: string, sent: OutgoingDelivery, answer: PostResult): Exchange {
  return {
    id,
    check,
    request: { method: 'POST', url, headers: lowerCased(sent.headers), body: sent.body },
    ...(answer.responseCode === null
      ? { error: answer.error ?? 'no answer' }
      : {
          response: {
            status: answer.responseCode,
            headers: lowerCased(answer.response?.headers ?? {}),
            body: answer.response?.body ?? '',
          },
        }),
    startedAt: Date.now() - answer.durationMs,
    durationMs: answer.durationMs,
  };
}

/** What the receiver answered, in words; a timeout says what the service does about it. */
function describeAnswers(answers: readonly PostResult[], timeoutMs: number): string {
  const timedOut = answers.some((answer) => answer.responseCode === null && answer.error?.startsWith('No answer'));
  const codes = answers
    .map(({ responseCode, error }) => responseCode ?? (timedOut ? 'no answer' : `no answer (${error ?? 'unknown'})`))
    .join(', ');
  return timedOut
    ? `${codes}: no answer within ${timeoutMs / 1000} s, the contract's attempt timeout (x-webhook-delivery.attempt_timeout_seconds); the service counts the attempt failed and sends the delivery again`
    : codes;
}

async function handledObservations(one: ReceiverCase, handledUrl: string, sent: readonly OutgoingDelivery[]) {
  const observations: Observation[] = [];
  for (const deliveryId of [...new Set(sent.map((each) => each.deliveryId))]) {
    const base = { requirement: one.requirement, check: one.name, evidence: [] };
    const count = await handledCount(handledUrl, deliveryId).catch((error: unknown) =>
      error instanceof Error ? error : new Error(String(error)),
    );
    observations.push(
      count instanceof Error
        ? { ...base, outcome: 'error', message: `${handledUrl}: ${count.message}` }
        : {
            ...base,
            outcome: count === 1 ? 'pass' : 'fail',
            message: `the receiver handled delivery ${deliveryId} ${count} time(s)`,
            ...(count === 1 ? {} : { kind: failureKinds[one.requirement] ?? 'duplicate', expected: 1, got: count }),
          },
    );
  }
  return observations;
}

export async function runCase(one: ReceiverCase, input: CaseInput, context: CaseContext): Promise<CaseRun> {
  const skip = one.skip?.(input);
  if (skip !== undefined) {
    const observation: Observation = {
      requirement: one.requirement,
      check: one.name,
      outcome: 'skip',
      message: `${one.name}: ${skip.reason}`,
      remedy: skip.remedy,
      evidence: [],
    };
    return { observations: [observation], codes: [], evidence: [] };
  }
  const sent = one.requests(input);
  const answers: PostResult[] = [];
  const evidence: Exchange[] = [];
  for (const delivery of sent) {
    const answer = await context.send(delivery);
    answers.push(answer);
    evidence.push(exchangeOf(context.nextId(), one.name, context.url, delivery, answer));
  }
  const codes = answers.map((answer) => answer.responseCode);
  const ok = codes.every((code) => answered(one.expect, code));
  const expected = one.expect === '2xx' ? 'a 2xx answer' : `${one.expect}`;
  const observations: Observation[] = [
    {
      requirement: one.requirement,
      check: one.name,
      outcome: ok ? 'pass' : 'fail',
      message: ok
        ? `${one.title}: answered ${codes.join(', ')}`
        : `${one.title}: expected ${expected}, got ${describeAnswers(answers, input.timeoutMs)}`,
      ...(ok ? {} : { kind: failureKinds[one.requirement] ?? 'status', expected, got: codes }),
      evidence,
    },
  ];
  if (one.handledOnce === true && context.handledUrl !== undefined) {
    const handled = await handledObservations(one, context.handledUrl, sent);
    observations.push(...handled.map((observation) => ({ ...observation, evidence })));
  }
  return { observations, codes, evidence };
}
