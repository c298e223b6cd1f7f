/**
 * `boardkit webhooks check-receiver`: the receiver suite. It sends the cases of receiver-cases.ts to a
 * receiver the user runs and judges each answer against the receiver registry
 * (conformance/requirements/receiver.ts), folding and reporting like `boardkit conformance` (the same
 * result shape, so the same JSON, JUnit and HTML reporters). The receiver is expected on this machine,
 * so its clock is the suite's: the timestamp cases are 301 seconds off the wall clock.
 * @module
 */
import { readFileSync } from 'node:fs';
import type { OpenApiDocument } from '../contract/load.js';
import { packageJson } from '../contract/paths.js';
import type { Exchange } from '../../conformance/harness/exchange.js';
import { foldStatus, type Observation } from '../../conformance/harness/observations.js';
import { type CheckResult, exitCodeOf, fold, type RunResult, summarize } from '../../conformance/harness/results.js';
import { receiverRequirements } from '../../conformance/requirements/receiver.js';
import type { PostResult } from '../webhooks/delivery-request.js';
import { checkWebhookSecret } from '../webhooks/ids.js';
import { type OutgoingDelivery, wallClockSeconds } from './delivery.js';
import { handledCount } from './handled.js';
import { receiverCases, type ExpectedAnswer, type ReceiverCase } from './receiver-cases.js';
import { sampleBody } from './samples.js';
import { ReceiverUrlError, receiverSender, type SendOptions } from './send.js';

export interface CheckReceiverOptions extends SendOptions {
  secret: string;
  /** Where the receiver shows the delivery ids it handled (see handled.ts); optional. */
  handledUrl?: string;
  onProgress?: (line: string) => void;
}

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

function exchangeOf(
  id: number,
  check: string,
  url: string,
  sent: OutgoingDelivery,
  answer: PostResult,
  startedAt: number,
): Exchange {
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
    startedAt,
    durationMs: answer.durationMs,
  };
}

const failureKinds: Record<string, Observation['kind']> = {
  'RECV-002': 'duplicate',
  'RECV-004': 'timestamp',
  'RECV-005': 'header',
};

function suiteVersion(): string {
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

export async function checkReceiver(
  document: Readonly<OpenApiDocument>,
  options: CheckReceiverOptions,
): Promise<RunResult> {
  checkWebhookSecret(options.secret, '--secret');
  const startedAt = new Date();
  const send = await receiverSender(options);
  const event = 'session.complete';
  const observations: Observation[] = [];
  const caseResults: CheckResult[] = [];
  let nextId = 1;
  let requests = 0;

  const runCase = async (one: ReceiverCase): Promise<void> => {
    const caseStarted = Date.now();
    const body = sampleBody(document, event, { form: 'seed', at: Date.now() });
    const sent = one.requests({ secret: options.secret, body, event, now: wallClockSeconds() });
    const evidence: Exchange[] = [];
    const codes: Array<number | null> = [];
    for (const delivery of sent) {
      const started = Date.now();
      const answer = await send(delivery);
      requests++;
      evidence.push(exchangeOf(nextId++, one.name, options.url, delivery, answer, started));
      codes.push(answer.responseCode);
    }
    if (one.name === 'receiver.valid' && codes.every((code) => code === null)) {
      throw new ReceiverUrlError(`${options.url} did not answer: ${evidence[0]?.error ?? 'no response'}`);
    }
    const ok = codes.every((code) => answered(one.expect, code));
    const expected = one.expect === '2xx' ? 'a 2xx answer' : `${one.expect}`;
    observations.push({
      requirement: one.requirement,
      check: one.name,
      outcome: ok ? 'pass' : 'fail',
      message: ok
        ? `${one.title}: answered ${codes.join(', ')}`
        : `${one.title}: expected ${expected}, got ${codes.map((code) => code ?? 'no answer').join(', ')}`,
      ...(ok ? {} : { kind: failureKinds[one.requirement] ?? 'status', expected, got: codes }),
      evidence,
    });
    if (one.name === 'receiver.duplicate' && options.handledUrl !== undefined && sent[0] !== undefined) {
      const { deliveryId } = sent[0];
      const count = await handledCount(options.handledUrl, deliveryId).catch((error: unknown) =>
        error instanceof Error ? error : new Error(String(error)),
      );
      observations.push(
        count instanceof Error
          ? {
              requirement: one.requirement,
              check: one.name,
              outcome: 'error',
              message: `${options.handledUrl}: ${count.message}`,
              evidence,
            }
          : {
              requirement: one.requirement,
              check: one.name,
              outcome: count === 1 ? 'pass' : 'fail',
              message: `the receiver handled delivery ${deliveryId} ${count} time(s)`,
              ...(count === 1 ? {} : { kind: 'duplicate' as const, expected: 1, got: count }),
              evidence,
            },
      );
    }
    const own = observations.filter((observation) => observation.check === one.name);
    caseResults.push({
      name: one.name,
      category: 'receiver',
      title: one.title,
      requirements: [one.requirement],
      status: foldStatus(own),
      durationMs: Date.now() - caseStarted,
    });
    options.onProgress?.(
      `${ok ? 'ok  ' : 'FAIL'} ${one.name}  ${one.title} → ${codes.map((code) => code ?? 'no answer').join(', ')}`,
    );
  };

  for (const one of receiverCases) {
    await runCase(one);
  }
  const results = receiverRequirements.map((requirement) => fold(requirement, observations));
  const summary = summarize(results);
  const finishedAt = new Date();
  return {
    suite: {
      name: 'boardkit webhooks check-receiver',
      version: suiteVersion(),
      contractVersion: String(document.info.version),
      title: 'Webhook receiver conformance',
    },
    target: {
      baseUrl: options.url,
      live: true,
      liveEvidence: 'a webhook receiver',
      announced: {},
      testControl: false,
      timeScale: 1,
      clockControllable: false,
      secondKey: false,
    },
    profile: { name: 'receiver', description: "The seed's receiver rules: verify, refuse, deduplicate." },
    selection: [],
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    requests,
    summary,
    requirements: results,
    checks: caseResults,
    exitCode: exitCodeOf(summary.verdict),
  };
}
