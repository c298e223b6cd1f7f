/**
 * The record of a proxy run: the exchanges relayed, the violations found with their evidence, whether
 * the upstream ever answered, and the coverage tally. The reports are written from it when the run stops.
 * @module
 */
import type { Evidence, Finding, Violation, ViolationKind } from './findings.js';
import type { CoverageTally } from './coverage.js';

/** What a report keeps of a body: enough to see the problem, bounded for a CI artefact. */
export const evidenceLimit = 4096;

/** Credentials never reach a report or a log: the scheme and the first characters of a key stay. */
const secretHeaders = new Set(['authorization', 'cookie', 'proxy-authorization', 'x-api-key']);

export function maskedHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      secretHeaders.has(name)
        ? value.replace(/^(\S+\s+)?(.{0,8}).*$/s, (_, scheme = '', start: string) => `${scheme}${start}…`)
        : value,
    ]),
  );
}

export function cut(text: string): { text: string; truncated: boolean } {
  return text.length > evidenceLimit
    ? { text: text.slice(0, evidenceLimit), truncated: true }
    : { text, truncated: false };
}

export interface ExchangeContext {
  exchange: number;
  operation: string | undefined;
  method: string;
  target: string;
  status: number | undefined;
  evidence: Evidence;
}

export interface Traffic {
  readonly tally: CoverageTally;
  readonly violations: Violation[];
  /** Exchanges relayed, those the upstream did not answer included. */
  exchanges: number;
  /** Requests the upstream did not answer (refused, reset, timed out). */
  unanswered: number;
  /** Whether the upstream answered at least one request or probe. */
  upstreamSeen: boolean;
  /** Records findings of an exchange; returns the violations made of them. */
  add(context: ExchangeContext, findings: readonly Finding[]): Violation[];
}

export function createTraffic(tally: CoverageTally, failOn: readonly ViolationKind[]): Traffic {
  const violations: Violation[] = [];
  return {
    tally,
    violations,
    exchanges: 0,
    unanswered: 0,
    upstreamSeen: false,
    add(context, findings) {
      const made = findings.map((finding) => ({
        ...finding,
        ...context,
        counted: failOn.includes(finding.kind),
      }));
      violations.push(...made);
      return made;
    },
  };
}
