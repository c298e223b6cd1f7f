/**
 * Contract checks: every response of the run validated against the contract (a sweep), every read
 * operation without parameters exercised, and no 5xx anywhere.
 * @module
 */
import { pathRelativeTo } from '../harness/contract.js';
import type { Exchange } from '../harness/exchange.js';
import type { FailureKind } from '../harness/observations.js';
import { validateExchange, type Violation } from '../harness/validate-exchange.js';
import type { CheckContext } from '../harness/check.js';
import { checksOf } from './define.js';
import { expectStatus } from './problem-shape.js';

const check = checksOf('contract');

const kinds: Record<Violation['requirement'], FailureKind> = {
  'CONT-001': 'status',
  'CONT-002': 'media-type',
  'CONT-003': 'header',
  'CONT-004': 'schema',
};

/** One failure per distinct violation (same requirement, operation, status and message), at most 30 each. */
const maxFailuresPerRequirement = 30;

export const everyResponse = check('every-response', ['CONT-001', 'CONT-002', 'CONT-003', 'CONT-004'], {
  title: 'Every response of the run validates against the contract',
  phase: 'sweep',
  async run(ctx) {
    const seen = new Map<string, number>();
    const failures = new Map<string, number>();
    let validated = 0;
    for (const exchange of ctx.exchanges()) {
      const operation =
        exchange.response &&
        ctx.contract.operation(exchange.request.method, pathRelativeTo(ctx.target.baseUrl, exchange.request.url));
      if (operation === undefined) {
        continue;
      }
      validated++;
      for (const violation of validateExchange(ctx.contract, operation, exchange)) {
        const key = `${violation.requirement} ${operation.operationId} ${exchange.response?.status} ${violation.message}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        const count = failures.get(violation.requirement) ?? 0;
        if (seen.get(key) === 1 && count < maxFailuresPerRequirement) {
          failures.set(violation.requirement, count + 1);
          ctx.fail(violation.requirement, {
            kind: kinds[violation.requirement],
            message: `${exchange.request.method} ${operation.path} → ${exchange.response?.status}: ${violation.message}`,
            expected: violation.expected,
            got: violation.got,
            evidence: exchange,
          });
        }
      }
    }
    for (const requirement of Object.keys(kinds)) {
      if (validated === 0) {
        ctx.skip(requirement, 'the run saw no response of a documented operation');
      } else if (!failures.has(requirement)) {
        ctx.pass(requirement, `${validated} responses of documented operations conform`);
      }
    }
  },
});

/** Every GET without path parameters: the lists, credits and the health probe. */
export const readEveryList = check('read-every-list', ['CONT-005'], {
  title: 'Every read operation without path parameters answers 200',
  async run(ctx) {
    const reads = ctx.contract.routes
      .filter((route) => route.parameters === 0)
      .flatMap((route) => {
        const operation = route.operations.get('GET');
        return operation === undefined ? [] : [operation];
      });
    for (const operation of reads) {
      const client =
        Array.isArray(operation.operation.security) && operation.operation.security.length === 0
          ? ctx.anonymous
          : ctx.http;
      const exchange = await client.get(operation.path);
      expectStatus(
        ctx,
        'CONT-005',
        exchange,
        200,
        `GET ${operation.path} did not answer 200`,
        `GET ${operation.path} answered 200`,
      );
    }
  },
});

export const noServerError = check('no-server-error', ['CONT-006'], {
  title: 'No request of the run is answered with a 5xx',
  phase: 'sweep',
  async run(ctx: CheckContext) {
    const faults: Exchange[] = ctx.exchanges().filter((exchange) => (exchange.response?.status ?? 0) >= 500);
    for (const exchange of faults.slice(0, maxFailuresPerRequirement)) {
      ctx.fail('CONT-006', {
        kind: 'status',
        message: `${exchange.request.method} ${pathRelativeTo(ctx.target.baseUrl, exchange.request.url)} answered ${exchange.response?.status}`,
        expected: '< 500',
        got: exchange.response?.status,
        evidence: exchange,
      });
    }
    if (faults.length === 0) {
      ctx.pass('CONT-006', `none of ${ctx.exchanges().length} responses is a 5xx`);
    }
  },
});

export const contractChecks = [readEveryList, everyResponse, noServerError];
