/**
 * No skip without its remedy: every precondition says what would meet it, and every requirement a check
 * declares resolves to a remedy of its own or its category's, so a skip a check records with a reason
 * alone still tells the implementer how to un-skip it; a report never holds a skip without one.
 */
import { describe, expect, test } from 'vitest';
import { checks } from '../../conformance/checks/index.js';
import type { PreconditionName } from '../../conformance/harness/check.js';
import { createCheckContext, type SharedRunState } from '../../conformance/harness/context.js';
import { ExchangeLog } from '../../conformance/harness/exchange.js';
import { HttpClient } from '../../conformance/harness/http.js';
import type { Observation } from '../../conformance/harness/observations.js';
import { preconditionRemedies, unmet } from '../../conformance/harness/preconditions.js';
import { categoryRemedies, remedyFor, requirementRemedies } from '../../conformance/harness/remedies.js';
import { fold } from '../../conformance/harness/results.js';
import { findRequirement, requirements } from '../../conformance/requirements/index.js';
import type { Target } from '../../conformance/harness/target.js';
import { realTimeClock } from '../../conformance/harness/clock.js';

describe('remedies', () => {
  test('every precondition says what would meet it, with the flag that does', async () => {
    const target = {
      live: false,
      hasSecondKey: false,
      clock: realTimeClock(),
      control: undefined,
    } as unknown as Target;
    const names = Object.keys(preconditionRemedies) as PreconditionName[];
    const state = { target, optedIn: false, receiverUnreachable: async () => 'the target does not deliver' };
    for (const name of names) {
      const found = await unmet(name, state);
      expect(found?.reason, name).toBeTruthy();
      expect(found?.remedy, name).toMatch(/--[a-z]/);
    }
  });

  test('every requirement a check declares has a remedy, and every override names a requirement of the registry', () => {
    const declared = [
      ...new Set(checks.flatMap((check) => check.requirements.map((id) => [id, check.category] as const))),
    ];
    expect(declared.filter(([id, category]) => remedyFor(id, category).trim().length < 20)).toEqual([]);
    expect(Object.keys(requirementRemedies).filter((id) => findRequirement(id) === undefined)).toEqual([]);
    expect(Object.values(categoryRemedies).filter((remedy) => remedy.trim() === '')).toEqual([]);
  });

  test("a skip a check records with its reason alone carries its requirement's remedy into the report", () => {
    const log = new ExchangeLog();
    const http = new HttpClient({
      baseUrl: 'http://127.0.0.1:9',
      log,
      check: 'test',
      credentials: { kind: 'none' },
      defaultTimeoutMs: 1000,
      realWaitMs: (seconds) => seconds * 1000,
    });
    const shared = {
      http,
      anonymous: http,
      httpB: undefined,
      log,
      target: { clock: realTimeClock() },
    } as unknown as SharedRunState;
    for (const check of checks) {
      const recorded: Observation[] = [];
      const ctx = createCheckContext(
        check,
        shared,
        new AbortController().signal,
        (observation) => recorded.push(observation),
        () => undefined,
      );
      check.requirements.forEach((id) => ctx.skip(id, 'the target lacked something'));
      for (const id of check.requirements) {
        const result = fold(
          requirements.find((requirement) => requirement.id === id)!,
          recorded,
        );
        expect({ id, status: result.status, remedy: result.remedy }).toEqual({
          id,
          status: 'skip',
          remedy: remedyFor(id, check.category),
        });
      }
    }
  });
});
