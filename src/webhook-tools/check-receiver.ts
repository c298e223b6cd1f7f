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
import { webhookDelivery } from '../contract/extensions.js';
import { packageJson } from '../contract/paths.js';
import { foldStatus, type Observation } from '../../conformance/harness/observations.js';
import { type CheckResult, exitCodeOf, fold, type RunResult, summarize } from '../../conformance/harness/results.js';
import { receiverRequirements } from '../../conformance/requirements/receiver.js';
import type { EnvelopeForm, WebhookEventName } from '../webhooks/events.js';
import { checkWebhookSecret } from '../webhooks/ids.js';
import { wallClockSeconds } from './delivery.js';
import type { CaseInput } from './receiver-case.js';
import { receiverCases } from './receiver-cases.js';
import { runCase } from './run-case.js';
import { sampleBody } from './samples.js';
import { ReceiverUrlError, receiverSender, type SendOptions } from './send.js';

/** The envelope forms a receiver is checked with: the one its subscriptions choose, or both. */
export type ReceiverEnvelope = EnvelopeForm | 'both';

export interface CheckReceiverOptions extends SendOptions {
  secret: string;
  /** The secret being replaced, while the receiver accepts both (RECV-014); that case is skipped without. */
  previousSecret?: string;
  /** Which envelope the receiver expects (a subscription's `envelope`); both by default, as the contract allows. */
  envelope?: ReceiverEnvelope;
  /** Where the receiver shows the delivery ids it handled (see handled.ts); optional. */
  handledUrl?: string;
  onProgress?: (line: string) => void;
}

function suiteVersion(): string {
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

/** The forms to check, the first one the form of every case's body. */
function formsOf(envelope: ReceiverEnvelope | undefined): EnvelopeForm[] {
  return envelope === undefined || envelope === 'both' ? ['seed', 'published'] : [envelope];
}

export async function checkReceiver(
  document: Readonly<OpenApiDocument>,
  options: CheckReceiverOptions,
): Promise<RunResult> {
  checkWebhookSecret(options.secret, '--secret');
  if (options.previousSecret !== undefined) {
    checkWebhookSecret(options.previousSecret, '--previous-secret');
  }
  const startedAt = new Date();
  const send = await receiverSender(options);
  const event: WebhookEventName = 'session.complete';
  const forms = formsOf(options.envelope);
  const timeoutMs = options.timeoutMs ?? webhookDelivery(document).attemptTimeoutMs;
  const observations: Observation[] = [];
  const caseResults: CheckResult[] = [];
  let nextId = 1;
  let requests = 0;
  const context = { url: options.url, handledUrl: options.handledUrl, send, nextId: () => nextId++ };

  for (const one of receiverCases) {
    const caseStarted = Date.now();
    const input: CaseInput = {
      secret: options.secret,
      previousSecret: options.previousSecret,
      event,
      forms,
      body: sampleBody(document, event, { form: forms[0]!, at: caseStarted }),
      sample: (other, form, overrides = {}) =>
        sampleBody(document, other, { form, at: overrides.at ?? caseStarted, sessionId: overrides.sessionId }),
      now: wallClockSeconds(),
      timeoutMs,
    };
    const run = await runCase(one, input, context);
    requests += run.codes.length;
    if (one.name === 'receiver.valid' && run.codes.every((code) => code === null)) {
      throw new ReceiverUrlError(`${options.url} did not answer: ${run.evidence[0]?.error ?? 'no response'}`);
    }
    observations.push(...run.observations);
    const status = foldStatus(run.observations);
    caseResults.push({
      name: one.name,
      category: 'receiver',
      title: one.title,
      requirements: [one.requirement],
      status,
      durationMs: Date.now() - caseStarted,
    });
    const mark = { pass: 'ok  ', fail: 'FAIL', skip: 'skip', error: 'ERR ' }[status];
    const answers = run.codes.map((code) => code ?? 'no answer').join(', ');
    options.onProgress?.(`${mark} ${one.name}  ${one.title} → ${answers || run.observations[0]?.message}`);
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
