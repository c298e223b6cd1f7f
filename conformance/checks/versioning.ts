/**
 * Versioning (seed "Versioning" 4): the date version on every response, pinning it, and what a pin changes.
 * @module
 */
import { pathRelativeTo } from '../harness/contract.js';
import { jsonOf } from '../harness/exchange.js';
import { acceptedStartA, mapsVersions } from '../harness/profiles.js';
import { discard, startBodyA, startSession } from '../harness/sessions.js';
import { expectProblem } from './problem-shape.js';
import { checksOf } from './define.js';

const check = checksOf('versioning');

const versionHeader = 'x-service-api-version';

/** A calendar date `YYYY-MM-DD` (the `ApiVersion` shape, and a real month and day). */
export function isDateVersion(value: string | undefined): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value ?? '');
  if (match === null) {
    return false;
  }
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value ?? '');
}

export const everyResponseVersioned = check('every-response', ['VER-001'], {
  title: 'Every response carries a date-shaped X-Service-API-Version',
  phase: 'sweep',
  async run(ctx) {
    const answered = ctx.exchanges().filter((exchange) => exchange.response !== undefined);
    const wrong = answered.filter((exchange) => !isDateVersion(exchange.response?.headers[versionHeader]));
    for (const exchange of wrong.slice(0, 30)) {
      ctx.fail('VER-001', {
        kind: 'header',
        message: `${exchange.request.method} ${pathRelativeTo(ctx.target.baseUrl, exchange.request.url)} → ${exchange.response?.status}: ${exchange.response?.headers[versionHeader] === undefined ? 'no' : 'a malformed'} X-Service-API-Version`,
        expected: 'YYYY-MM-DD',
        got: exchange.response?.headers[versionHeader] ?? null,
        evidence: exchange,
      });
    }
    if (wrong.length === 0) {
      ctx.pass('VER-001', `all ${answered.length} responses carry a date version`);
    }
  },
});

export const pinEcho = check('pin-echo', ['VER-002'], {
  title: 'A pinned supported version is answered as that version',
  preconditions: ['live'],
  async run(ctx) {
    for (const version of ctx.contract.apiVersions) {
      const exchange = await ctx.http.get('/v1/sessions', {
        query: { limit: 1 },
        headers: { 'X-Service-API-Version': version },
      });
      const got = exchange.response?.headers[versionHeader];
      ctx.expect(
        'VER-002',
        exchange.response?.status === 200 && got === version,
        {
          kind: 'header',
          message: `pinned ${version}, answered as ${got ?? 'no version'}`,
          expected: version,
          got: { status: exchange.response?.status, version: got ?? null },
          evidence: exchange,
        },
        `pinned ${version}, answered as ${version}`,
      );
    }
  },
});

export const unknownVersion = check('unknown-version', ['VER-003'], {
  title: 'A pin to an unknown version is 400 invalid-request',
  preconditions: ['live'],
  async run(ctx) {
    for (const version of ['1999-01-01', 'v1']) {
      const exchange = await ctx.http.get('/v1/sessions', {
        query: { limit: 1 },
        headers: { 'X-Service-API-Version': version },
      });
      expectProblem(ctx, 'VER-003', exchange, 400, 'invalid-request', `pinned ${version}`);
    }
  },
});

export const pinnedBehaviour = check('pinned-behaviour', ['VER-004'], {
  title: "A pinned request gets its version's start response",
  preconditions: ['live'],
  async run(ctx) {
    if (!mapsVersions(ctx.profile)) {
      ctx.skip(
        'VER-004',
        `profile ${ctx.profile.name} accepts every start variant under every version; use --profile reference to require the version mapping`,
      );
      return;
    }
    for (const version of Object.keys(ctx.profile.startResponseA).filter((key) => key !== '*')) {
      const started = await startSession(ctx.http, ctx.contract, startBodyA(ctx.target.synths), {
        'X-Service-API-Version': version,
      });
      const accepted = acceptedStartA(ctx.profile, version);
      ctx.expect(
        'VER-004',
        started.variant !== undefined && accepted.includes(started.variant),
        {
          kind: 'variant',
          message: `a lineup start pinned to ${version} answered variant ${started.variant ?? 'none'}`,
          expected: accepted,
          got: started.variant ?? jsonOf(started.exchange),
          evidence: started.exchange,
        },
        `a lineup start pinned to ${version} answered ${started.variant}`,
      );
      await discard(ctx.http, started.id);
    }
  },
});

export const healthVersion = check('health-version', ['VER-005'], {
  title: 'The health probe reports the version of its header',
  async run(ctx) {
    const exchange = await ctx.anonymous.get('/v1/health');
    const reported = (jsonOf(exchange) as { api_version?: unknown } | undefined)?.api_version;
    if (reported === undefined) {
      ctx.skip('VER-005', 'the health probe does not report api_version (optional)');
      return;
    }
    const header = exchange.response?.headers[versionHeader];
    ctx.expect(
      'VER-005',
      reported === header,
      {
        kind: 'header',
        message: 'the health body and header name different versions',
        expected: header ?? null,
        got: reported,
        evidence: exchange,
      },
      `health reports ${JSON.stringify(reported)} in body and header`,
    );
  },
});

export const versioningChecks = [pinEcho, unknownVersion, pinnedBehaviour, healthVersion, everyResponseVersioned];
