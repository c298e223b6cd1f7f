/**
 * Profiles: which published variants the suite accepts. By default every variant the seed publishes is
 * accepted (start responses A1, A2 and B; event lists 1 to 4; both retry schedules; both webhook envelopes); a profile can require
 * specific ones, like a claim in OCI's conformance ("a registry that claims a category implements all of it").
 * @module
 */
import { readFileSync } from 'node:fs';
import { envelopeForms, type EnvelopeForm } from './deliveries.js';

export type StartVariant = 'A1' | 'A2' | 'B';
export type EventListVariant = 1 | 2 | 3 | 4;
export type RetryScheduleName = 'four-waits' | 'five-waits';

export interface Profile {
  name: string;
  description: string;
  /** Start response variants accepted for a board-lineup start, by pinned version; `*` for any version. */
  startResponseA: Readonly<Record<string, readonly StartVariant[]>>;
  /** Start response variants accepted for a decision-brief start. */
  startResponseB: readonly StartVariant[];
  eventLists: readonly EventListVariant[];
  retrySchedules: readonly RetryScheduleName[];
  /**
   * Webhook envelopes accepted: the seed's (`event`, …) and the one of the service's current webhooks page
   * (`type`, …). Both by default; a profile listing one fails deliveries in the other (HOOK-006).
   */
  envelopes: readonly EnvelopeForm[];
  /** Also run the categories that spend quota (rate limits) without `--only`. */
  includeOptIn: boolean;
  /**
   * Where the target's share page opens a link, relative to the base URL, with `{token}` for the last
   * path segment of `Share.url` (the reference server: `/s/{token}`). By default the page opens from
   * `Share.url` itself (harness/share-page.ts).
   */
  sharePage?: string;
  /**
   * Keys of workspaces on other tiers, by tier (`pro`, `max`…), for the tier checks of a target whose test
   * control cannot provision them (`--tier-key TIER=KEY`). Never written to a report.
   */
  tierKeys?: Readonly<Record<string, string>>;
  /**
   * A key of a workspace whose balance covers no session, for CRED-002 on a target whose test control
   * cannot provision one (`--low-credit-key`). Never written to a report.
   */
  lowCreditKey?: string;
  /**
   * A key whose legacy per-key webhook URL the implementer set to the suite's receiver
   * (`http://HOST:PORT/legacy`, with `--receiver-port`), and that URL's `whsec_` secret, for LEG-001…003 on
   * a target whose test control cannot set one (`--legacy-webhook-key`, `--legacy-webhook-secret`).
   */
  legacyWebhook?: { key: string; secret: string };
  /**
   * A key rotated less than 23 hours ago and the key its rotation issued, for KROT-001 and KROT-003 on a
   * target whose test control cannot rotate one (`--rotated-key OLD=NEW`).
   */
  rotatedKey?: { old: string; fresh: string };
  /** A key whose rotation is more than 24 hours past, for KROT-002 (`--expired-key`). */
  expiredKey?: string;
}

/** The keys and secrets a profile names: never written to a report. */
export function profileSecrets(profile: Profile): string[] {
  return [
    ...Object.values(profile.tierKeys ?? {}),
    ...(profile.lowCreditKey === undefined ? [] : [profile.lowCreditKey]),
    ...(profile.legacyWebhook === undefined ? [] : [profile.legacyWebhook.key, profile.legacyWebhook.secret]),
    ...(profile.rotatedKey === undefined ? [] : [profile.rotatedKey.old, profile.rotatedKey.fresh]),
    ...(profile.expiredKey === undefined ? [] : [profile.expiredKey]),
  ];
}

const everyStartVariant: readonly StartVariant[] = ['A1', 'A2', 'B'];

export const defaultProfile: Profile = {
  name: 'default',
  description: 'Accepts every published variant; the rate-limit category runs only when selected.',
  startResponseA: { '*': everyStartVariant },
  startResponseB: everyStartVariant,
  eventLists: [1, 2, 3, 4],
  retrySchedules: ['four-waits', 'five-waits'],
  envelopes: envelopeForms,
  includeOptIn: false,
};

export const builtInProfiles: Readonly<Record<string, Profile>> = {
  default: defaultProfile,
  full: {
    ...defaultProfile,
    name: 'full',
    description: 'Every published variant, every category, the rate-limit category included.',
    includeOptIn: true,
  },
  reference: {
    ...defaultProfile,
    name: 'reference',
    description:
      "The reference server's choices: a lineup start answers A2 under 2026-10-01 and A1 under 2026-04-01, a brief start answers B; share links open at /s/{token}.",
    startResponseA: { '2026-10-01': ['A2'], '2026-04-01': ['A1'] },
    startResponseB: ['B'],
    sharePage: '/s/{token}',
  },
};

/** The start variants a profile accepts for a lineup start processed as `version`. */
export function acceptedStartA(profile: Profile, version: string | undefined): readonly StartVariant[] {
  return (
    (version === undefined ? undefined : profile.startResponseA[version]) ??
    profile.startResponseA['*'] ??
    everyStartVariant
  );
}

/** Whether the profile ties start variants to versions (what VER-004 needs). */
export function mapsVersions(profile: Profile): boolean {
  return Object.keys(profile.startResponseA).some((key) => key !== '*');
}

/**
 * A built-in profile by name, or a JSON file of one: the file's members replace the defaults', so a
 * file can say as little as `{"name": "events-v1", "eventLists": [1]}`.
 */
export function loadProfile(nameOrFile: string | undefined): Profile {
  if (nameOrFile === undefined) {
    return defaultProfile;
  }
  const builtIn = builtInProfiles[nameOrFile];
  if (builtIn !== undefined) {
    return builtIn;
  }
  if (!nameOrFile.endsWith('.json')) {
    throw new Error(`Unknown profile ${nameOrFile}: use ${Object.keys(builtInProfiles).join(', ')} or a .json file`);
  }
  const parsed = JSON.parse(readFileSync(nameOrFile, 'utf8')) as Partial<Profile>;
  return { ...defaultProfile, name: nameOrFile, description: `Profile file ${nameOrFile}`, ...parsed };
}
