/**
 * `runConformance`: the conformance suite from a test, against any implementation (a deployment, or a
 * server `startServer` started). The same run as `boardkit conformance`, returned instead of printed.
 * @module
 */
import type { Profile } from '../../conformance/index.js';
import { finishRun, progressSink, type ReportOptions, type RunReport } from './reports.js';

export interface ConformanceRunOptions extends ReportOptions {
  /** The implementation's `{base_url}`. */
  target: string;
  /** A key of the workspace under test. */
  apiKey: string;
  /** A key of another workspace, for the isolation checks. */
  apiKeyB?: string;
  /** `default`, `full`, `reference`, a profile file's path, or a profile. */
  profile?: string | Profile;
  /** Requirement IDs, ID prefixes or categories (`IDEM-003`, `webhooks`). */
  only?: string | readonly string[];
  /** Keys of workspaces on other tiers (`{ pro: 'sk_…' }`), for the tier checks. */
  tierKeys?: Readonly<Record<string, string>>;
  /** A key of a workspace whose balance covers no session. */
  lowCreditKey?: string;
  /** The address the suite's webhook receiver binds (127.0.0.1 by default). */
  receiverHost?: string;
  /** Checks run at once in the main phase (6 by default). */
  concurrency?: number;
  /** Real time the whole run may take, in seconds (1,800 by default). */
  timeoutSeconds?: number;
  /** An incomplete verdict gives exit code 0 instead of 3. */
  allowIncomplete?: boolean;
}

/**
 * Runs the suite. The result carries `summary.verdict` (`conformant`, `not conformant`, `incomplete`),
 * every requirement's result with its evidence, and the exit code the command line would give. A run
 * that cannot start (a wrong base URL, a refused key) rejects with the reason and the likely fix.
 */
export async function runConformance(options: ConformanceRunOptions): Promise<RunReport> {
  const suite = await import('../../conformance/index.js');
  const profile = typeof options.profile === 'object' ? options.profile : suite.loadProfile(options.profile);
  const progress = progressSink(options);
  const result = await suite.runConformance({
    target: options.target,
    apiKey: options.apiKey,
    ...(options.apiKeyB === undefined ? {} : { apiKeyB: options.apiKeyB }),
    ...(options.only === undefined ? {} : { only: typeof options.only === 'string' ? [options.only] : options.only }),
    profile: {
      ...profile,
      ...(options.tierKeys === undefined ? {} : { tierKeys: { ...options.tierKeys } }),
      ...(options.lowCreditKey === undefined ? {} : { lowCreditKey: options.lowCreditKey }),
    },
    ...(options.receiverHost === undefined ? {} : { receiverHost: options.receiverHost }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.timeoutSeconds === undefined ? {} : { runTimeoutMs: options.timeoutSeconds * 1000 }),
    allowIncomplete: options.allowIncomplete ?? false,
    ...(progress === undefined
      ? {}
      : {
          onProgress: (event) => {
            const line = suite.progressLine(event);
            if (line !== undefined) {
              progress(line);
            }
          },
        }),
  });
  return finishRun(result, options);
}
