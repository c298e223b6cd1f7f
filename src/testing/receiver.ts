/**
 * `checkReceiver`: the receiver suite from a test, against the webhook receiver the test started. The
 * same run as `boardkit webhooks check-receiver`, returned instead of printed.
 * @module
 */
import { finishRun, progressSink, type ReportOptions, type RunReport } from './reports.js';

export interface ReceiverCheckOptions extends ReportOptions {
  /** The receiver's URL (loopback only unless `allowRemote`). */
  url: string;
  /** The signing secret the receiver verifies with (`whsec_…`). */
  secret: string;
  /** Where the receiver lists the delivery ids it handled, to check a duplicate is handled once. */
  handledUrl?: string;
  /** Check a receiver that is not on a loopback address (its clock must be in sync). */
  allowRemote?: boolean;
  /** The secret being replaced, while the receiver accepts both; the rotation case is skipped without. */
  previousSecret?: string;
  /** The envelope the receiver expects: `seed`, `published`, or `both` (the default, as the contract allows). */
  envelope?: 'seed' | 'published' | 'both';
}

/** Runs the receiver suite; `summary.verdict` and `exitCode` as `check-receiver` gives them. */
export async function checkReceiver(options: ReceiverCheckOptions): Promise<RunReport> {
  const [{ checkReceiver: runReceiverSuite }, { loadContract }] = await Promise.all([
    import('../webhook-tools/check-receiver.js'),
    import('../contract/load.js'),
  ]);
  const progress = progressSink(options);
  const result = await runReceiverSuite(loadContract(), {
    url: options.url,
    secret: options.secret,
    allowRemote: options.allowRemote ?? false,
    ...(options.handledUrl === undefined ? {} : { handledUrl: options.handledUrl }),
    ...(options.previousSecret === undefined ? {} : { previousSecret: options.previousSecret }),
    ...(options.envelope === undefined ? {} : { envelope: options.envelope }),
    ...(progress === undefined ? {} : { onProgress: progress }),
  });
  return finishRun(result, options);
}
