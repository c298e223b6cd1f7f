/**
 * The requirement registry and the checks reference each other both ways, and the registry covers the
 * cross-cutting rules of the seed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checks, findCheck } from '../../conformance/checks/index.js';
import { categories, categoryPrefixes, findRequirement, requirements } from '../../conformance/requirements/index.js';
import { packageRoot } from '../../src/contract/paths.js';

describe('requirements', () => {
  test('IDs are unique, carry their category prefix and a three-digit number', () => {
    const ids = requirements.map((requirement) => requirement.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const requirement of requirements) {
      expect(requirement.id).toMatch(new RegExp(`^${categoryPrefixes[requirement.category]}-\\d{3}$`));
    }
  });

  test('each is one sentence with a level, a seed section and a provenance', () => {
    for (const requirement of requirements) {
      expect(['MUST', 'SHOULD', 'MAY']).toContain(requirement.level);
      expect(['stated', 'variant', 'designed']).toContain(requirement.provenance);
      expect(requirement.seed.length).toBeGreaterThan(3);
      expect(requirement.statement).toMatch(/^[A-Z"(a-z0-9].*\.$/);
      expect(requirement.statement.replace(/\b(e\.g|i\.e)\./g, '').slice(0, -1)).not.toMatch(/\.\s+[A-Z]/);
    }
  });

  test('every requirement is judged by a check, and its checks are those that declare it', () => {
    for (const requirement of requirements) {
      expect(requirement.checks.length, requirement.id).toBeGreaterThan(0);
      expect(requirement.checks, requirement.id).toEqual(
        checks.filter((check) => check.requirements.includes(requirement.id)).map((check) => check.name),
      );
    }
  });

  test('every category has requirements, in the order of the categories', () => {
    expect([...new Set(requirements.map((requirement) => requirement.category))]).toEqual([...categories]);
  });
});

describe('checks', () => {
  test('names are unique and start with their category', () => {
    const names = checks.map((check) => check.name);
    expect(new Set(names).size).toBe(names.length);
    for (const check of checks) {
      expect(check.name.startsWith(`${check.category}.`), check.name).toBe(true);
    }
  });

  test('every check judges requirements of the registry, of its own category', () => {
    for (const check of checks) {
      expect(check.requirements.length, check.name).toBeGreaterThan(0);
      expect(new Set(check.requirements).size, check.name).toBe(check.requirements.length);
      for (const id of check.requirements) {
        expect(findRequirement(id)?.category, `${check.name} → ${id}`).toBe(check.category);
      }
    }
  });

  test('are found by name', () => {
    expect(checks.every((check) => findCheck(check.name) === check)).toBe(true);
  });

  test('the harness runs them without importing them (its check model is its own)', () => {
    const harness = join(packageRoot, 'conformance', 'harness');
    const imports = readdirSync(harness)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        [...readFileSync(join(harness, file), 'utf8').matchAll(/from '(\.\.\/(?:checks|runner)[^']*)'/g)].map(
          (match) => `${file} → ${match[1]}`,
        ),
      );
    expect(imports).toEqual([]);
  });

  test('preconditions are the known ones', () => {
    for (const check of checks) {
      for (const precondition of check.preconditions) {
        expect(['live', 'second-key', 'time-control', 'opt-in', 'receiver-reachable']).toContain(precondition);
      }
    }
  });
});

/**
 * The cross-cutting rules of the seed (those that hold across endpoints, as opposed to one endpoint's
 * payload), each with the requirement that carries it and the seed section that requirement must cite.
 */
const crossCuttingRules: ReadonlyArray<[rule: string, id: string, section: RegExp]> = [
  ['requests carry Authorization: Bearer <API_KEY>', 'AUTH-005', /^Authentication 1$/],
  ['keys are scoped per workspace', 'ISO-001', /^Authentication 3$/],
  ['GET /api/v1/health needs no authentication', 'AUTH-004', /^Authentication 9$/],
  ['requests without a valid token are answered 401', 'AUTH-001', /^Authentication 10$/],
  ['all write endpoints accept an Idempotency-Key', 'IDEM-001', /^Endpoints$/],
  ['list endpoints use cursor pagination', 'PAGE-007', /^Endpoints$/],
  ['next_cursor is null when there are no more items', 'PAGE-002', /Other records$/],
  ['runs are asynchronous: long-poll with wait_ms', 'POLL-001', /^What the service does 5$/],
  ['deleting successfully returns 204', 'LIFE-010', /^Endpoints$/],
  ['status codes: documented per operation', 'CONT-001', /Status codes$/],
  ['errors use RFC 7807 problem details', 'PROB-001', /^Errors$/],
  ['the type URI ends with the catalog slug', 'PROB-003', /Error catalog$/],
  ['429 carries Retry-After', 'RATE-001', /^Limits 1$/],
  ['a repeated Idempotency-Key within 24 hours returns the original response', 'IDEM-002', /^Limits$/],
  ['an idempotency conflict is 409', 'IDEM-003', /Error catalog$/],
  ['X-Service-API-Version on every response', 'VER-001', /^Versioning 4$/],
  ['sending X-Service-API-Version pins the version', 'VER-002', /^Versioning 4$/],
  ['delivery headers: event, user agent, content type', 'HOOK-002', /Webhook subscriptions$/],
  ['verification: HMAC over <timestamp>.<raw_body>', 'HOOK-003', /Verification rules 1$/],
  ['replay tolerance of 300 seconds', 'HOOK-004', /Verification rules 2$/],
  ['any 2xx marks a delivery complete', 'HOOK-010', /Delivery, retry and pause 1$/],
  ['retry waits 1, 5, 15, 60 (and 240) minutes', 'HOOK-008', /Delivery, retry and pause 2$/],
  ['10 consecutive failed deliveries pause the subscription', 'HOOK-009', /Delivery, retry and pause 3$/],
  ['the deliveries listing shows the attempts', 'HOOK-007', /Delivery, retry and pause 4$/],
  ['the session event stream and its event names', 'SSE-001', /Server-sent event stream of a session$/],
  ['cancellation reconciles credits', 'LIFE-007', /^States and transitions$/],
  ['Synths per session: 2 to 12', 'LIFE-012', /^Limits$/],
];

test.each(crossCuttingRules)('the seed rule "%s" is %s', (_, id, section) => {
  expect(findRequirement(id)?.seed).toMatch(section);
});
