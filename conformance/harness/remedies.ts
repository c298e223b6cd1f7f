/**
 * How to un-skip: for every requirement a check may skip on its own (the target lacked what the check
 * needs), what would let the next run check it — a flag of the suite, or the capability the target lacks
 * and, for the reference server, the `boardkit serve` flag that grants it. A skip that names no remedy of
 * its own takes its requirement's here, else its category's, so no skip is left without one
 * (test/conformance/remedies.test.ts). Unmet preconditions carry theirs (preconditions.ts).
 * @module
 */
import type { Category } from '../requirements/types.js';
import { TransportError } from './http.js';
import { SetupFailure } from './observations.js';

const serveFull = '`boardkit serve --allow-loopback-webhooks`';
const deliveries = `let the target deliver webhooks to the suite's receiver (--receiver-host names an address of this machine it can reach; reference server: ${serveFull})`;
const failOnDemand =
  'a target that lets a run fail on demand: the reference server fails a session whose title holds [simulate:upstream-failure]; give another implementation a way to do the same';
const clockProtocol =
  'a target that offers the test clock protocol (docs/conformance.md "The test clock protocol"; reference server: `boardkit serve --test-control`)';
const shortGrace = `${clockProtocol}, or a faster clock (\`boardkit serve --time-scale 1000\`) with a longer --session-timeout`;
const retries = `--real-time-budget 100 (the suite watches the target's first retry wait in real time; about 6000, with --timeout 7200, for the whole schedule and the pause), or ${shortGrace}`;

/** The remedy of each category, for skips whose requirement names none of its own. */
export const categoryRemedies: Readonly<Record<Category, string>> = {
  contract: 'run more of the suite (drop --only) so the run calls what this sweep judges',
  problems: 'run more of the suite (drop --only) so the run provokes the errors this sweep judges',
  auth: 'run more of the suite (drop --only)',
  versioning:
    'use a profile that ties start variants to versions (--profile reference, or a profile file with startResponseA per version)',
  pagination:
    'give the workspace of --api-key enough items for a second page (the check makes some; a target that refuses them says why in the reason)',
  idempotency:
    'let the target accept writes with an Idempotency-Key, and give it a clock that can pass 23 hours (reference server: `boardkit serve --test-control`)',
  'long-poll':
    'plan longer sessions: a target whose sessions end before a poll can wait on them runs too fast in real time (reference server: a lower --time-scale)',
  sse: failOnDemand,
  lifecycle:
    'let sessions of the workspace of --api-key run to completion with an estimate and a reconciliation (enough credit, no faults)',
  isolation:
    'pass --api-key-b with a key of another workspace, and let the workspace of --api-key hold more than one page of items',
  webhooks: deliveries,
  plans: 'let the target answer a plan with an estimate (estimated_cost_credits) to compare with',
  messages: 'let the target accept a message into a running session (sessions long enough to receive one)',
  decisions: 'let a session of the workspace record a decision (a board run to its verdict)',
  outcomes: 'let sessions run long enough for their outcomes to be asked for (reference server: a lower --time-scale)',
  exports: 'let the target export a session in every format the contract lists',
  shares:
    'let the share page open from the URL the API returns in Share.url (or name where it opens with --share-page /s/{token})',
  actions:
    'connect an integration whose operations create something to the workspace of --api-key (the reference server connects one to every workspace)',
  'rate-limits':
    'select the category with --only rate-limits and give a target whose limit can be reached within a run; --api-key-b for the per-key limit',
  credits:
    'pass --low-credit-key with a key of a workspace whose balance covers no session (reference server: `boardkit serve --test-control` provisions one)',
  'key-rotation': `pass --rotated-key OLD=NEW (a key rotated less than 23 hours ago and the key its rotation issued) and --expired-key KEY (a key rotated more than 24 hours ago): the API has no operation that rotates a key; or ${clockProtocol} with its key routes`,
  tiers:
    'pass --tier-key pro=KEY (a key of a workspace below Ultra), or a target whose test control provisions one (`boardkit serve --test-control`)',
  'summary-stream': 'let the summary stream send event ids (id: lines) to resume from',
  'session-events': `subscribe the suite's receiver to the session events (${deliveries}); for session.failed, ${failOnDemand}`,
  consult: 'run more of the suite (drop --only)',
  'synth-chat': 'let the target answer a Synth chat with a conversation_id and credits_charged',
  'legacy-webhook':
    "set a key's legacy webhook URL to http://127.0.0.1:PORT/legacy and pass --receiver-port PORT --legacy-webhook-key KEY --legacy-webhook-secret WHSEC (reference server: `boardkit serve --allow-loopback-webhooks --legacy-webhook KEY=http://127.0.0.1:PORT/legacy` prints the secret)",
  'delivery-retention': `${deliveries}, and a clock that can pass the retention window: ${shortGrace}`,
  receiver: 'start the receiver under test and give its URL and secret',
};

/** Remedies more precise than their category's. */
export const requirementRemedies: Readonly<Record<string, string>> = {
  'VER-005': 'let the health probe report api_version (optional: the skip is not a fault)',
  'SSE-009': failOnDemand,
  'SEVT-005': failOnDemand,
  'SEVT-004': `a target whose event list has session.reconvened, subscribed by the suite (${deliveries})`,
  'HOOK-008': retries,
  'HOOK-009': retries,
  'HOOK-010': retries,
  'HOOK-013': retries,
  'HOOK-014': retries,
  'HOOK-016': 'a target that serves the unversioned /webhooks paths the seed also documents',
  'HOOK-017': 'a target that serves the unversioned /webhooks paths the seed also documents',
  'HOOK-018': 'a target that serves the unversioned /webhooks paths the seed also documents',
  'IDEM-007': `${clockProtocol}: a replay 23 hours later needs the target's clock moved`,
  'CRED-003': 'let a running session be cancelled with a reconciliation (sessions long enough to cancel)',
  'CRED-004': 'run against a workspace no other client writes to meanwhile',
  'CHAT-003': 'run against a workspace no other client writes to meanwhile, and let the reply report credits_charged',
  'RATE-003':
    'pass --api-key-b with a key of another workspace (reference server: a second --api-key of `boardkit serve`)',
  'RATE-005': 'nothing to do: retry_after_s in the 429 body is an optional variant',
  'SHARE-010': `run the target's clock at real speed (reference server: no --time-scale), or use ${clockProtocol}`,
};

/** The remedy of a skip of `requirement` (of `category`) that names none of its own. */
export function remedyFor(requirement: string, category: Category): string {
  return requirementRemedies[requirement] ?? categoryRemedies[category];
}

/** What would let the next run check the requirements of a check that ended in an error. */
export function errorRemedy(error: unknown): string {
  if (error instanceof SetupFailure) {
    return 'the target did not let the check set up what it needs (see the evidence); fix that, then run again with --only';
  }
  if (error instanceof TransportError) {
    return 'the target did not answer in time or dropped the connection: check it is up and answers within --request-timeout';
  }
  return 'run again with --only to see the check alone; if it persists, report it with report.json';
}
