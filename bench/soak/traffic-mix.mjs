/**
 * The soak's mix of requests: the kinds, their share of the traffic and the statuses each may answer,
 * drawn from a seeded generator (bench/support/seeded-random.mjs) so that a run's sequence of requests can
 * be repeated with `--seed`.
 */

/** The kinds of request, their share of the traffic and the statuses each may answer. */
export const kinds = [
  { name: 'start', weight: 10, ok: [202] },
  { name: 'replay start', weight: 5, ok: [202] },
  { name: 'get session', weight: 20, ok: [200] },
  { name: 'long poll', weight: 10, ok: [200] },
  { name: 'event stream', weight: 10, ok: [200] },
  { name: 'list sessions', weight: 15, ok: [200] },
  { name: 'credits', weight: 10, ok: [200] },
  // A session that has already ended cannot be cancelled: 409 is an expected answer.
  { name: 'cancel', weight: 5, ok: [200, 409] },
  { name: 'health', weight: 15, ok: [200] },
];

export const totalWeight = kinds.reduce((sum, kind) => sum + kind.weight, 0);

/** Picks a kind with `random`, each as often as its weight says. */
export function kindPicker(random) {
  return () => {
    let pick = random() * totalWeight;
    return kinds.find((kind) => (pick -= kind.weight) < 0) ?? kinds[0];
  };
}

export function percentile(sorted, p) {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
