/**
 * How the dispatcher shares its slots (src/webhooks/fair-share.ts): within every limit, free slots go to
 * the workspace with the fewest attempts in flight; a target that did not answer gets one slot until it
 * answers again.
 */
import { expect, test } from 'vitest';
import { createFairShare } from '../../src/webhooks/fair-share.js';
import type { ClaimCandidate, TargetState } from '../../src/webhooks/outbox.js';
import { retrySchedules } from '../../src/webhooks/retry.js';

function target(id: string, workspaceId: string, host = `${id}.example.com`): TargetState {
  return {
    id,
    kind: 'subscription',
    url: `https://${host}/hooks`,
    secret: 'whsec_4fQm9Zt2LxV7cR1nK8pH3wY6bD5sJ0aE',
    events: ['session.created'],
    schedule: retrySchedules.fourWaits,
    workspaceId,
    consecutiveFailures: 0,
    pausedAt: null,
  };
}

function candidate(of: TargetState, n: number): ClaimCandidate {
  return {
    target: of,
    delivery: {
      id: `dlv_${of.id}_${n}`,
      targetId: of.id,
      event: 'session.created',
      body: '{}',
      status: 'pending',
      attemptsMade: 0,
      dueAt: n,
      leaseUntil: null,
      createdAt: n,
      finishedAt: null,
    },
  };
}

const limits = { concurrency: 6, perWorkspace: 4, perHost: 3, perTarget: 2 };

test('a busy workspace gets its share, and the quiet one is served first whatever came due before', () => {
  const share = createFairShare(limits);
  const [a1, a2, a3, b1] = [target('a1', 'A'), target('a2', 'A'), target('a3', 'A'), target('b1', 'B')] as const;
  // A's six deliveries came due first; B's one last.
  const due = [a1, a1, a2, a2, a3, a3].map(candidate).concat(candidate(b1, 9));
  const chosen = share.choose(due).map(({ target: { id } }) => id);
  expect(chosen[1]).toBe('b1');
  expect(chosen.filter((id) => id.startsWith('a'))).toHaveLength(4);
  expect(chosen).toHaveLength(5);
});

test('a host takes at most its share, whichever workspaces subscribed it', () => {
  const share = createFairShare(limits);
  const shared = [
    target('a1', 'A', 'one.example.com'),
    target('b1', 'B', 'one.example.com'),
    target('c1', 'C', 'one.example.com'),
  ];
  const chosen = share.choose(shared.flatMap((of) => [candidate(of, 1), candidate(of, 2)]));
  expect(chosen).toHaveLength(3);
  expect(new Set(chosen.map(({ target: { id } }) => id))).toEqual(new Set(['a1', 'b1', 'c1']));
});

test('a target that did not answer gets one slot until it answers again', () => {
  const share = createFairShare(limits);
  const silent = target('a1', 'A');
  share.take(silent);
  share.release(silent, false);
  share.take(silent);
  expect(share.isBusy(silent)).toBe(true);
  expect(share.choose([candidate(silent, 1)])).toEqual([]);
  share.release(silent, true);
  share.take(silent);
  expect(share.isBusy(silent)).toBe(false);
  expect(share.choose([candidate(silent, 1)])).toHaveLength(1);
});
