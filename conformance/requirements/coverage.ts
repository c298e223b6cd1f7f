/**
 * Which requirements cover each thing the contract documents: its operations, the start request and
 * response variants, the webhook envelope forms, the problem types, the webhook events and the stream
 * events. The coverage of a run (harness/coverage.ts) names them against each gap; an empty list is a
 * documented thing no requirement exercises. The suite's tests keep this map in step with the contract,
 * the registry, and what the checks of each named requirement really send and receive.
 * @module
 */

export type CoverageKind =
  | 'operations'
  | 'startRequestVariants'
  | 'startResponseVariants'
  | 'webhookEnvelopes'
  | 'problemTypes'
  | 'webhookEvents'
  | 'streamEvents';

export type ItemKind = Exclude<CoverageKind, 'operations'>;

/** The item kinds, in the order reports list them. */
export const itemKinds: readonly ItemKind[] = [
  'startRequestVariants',
  'startResponseVariants',
  'webhookEnvelopes',
  'problemTypes',
  'webhookEvents',
  'streamEvents',
];

export const coverageMap: Record<CoverageKind, Readonly<Record<string, readonly string[]>>> = {
  /** By operationId: the requirements whose checks call the operation and get a success. */
  operations: {
    getHealth: ['AUTH-004', 'VER-005'],
    listSessions: ['PAGE-001', 'PAGE-003'],
    startSession: ['LIFE-001', 'LIFE-002'],
    planSession: ['PLAN-001', 'PLAN-002', 'PLAN-005', 'PLAN-006'],
    getSession: ['LIFE-003', 'POLL-001'],
    deleteSession: ['LIFE-010'],
    updateSession: ['LIFE-013', 'LIFE-014'],
    streamSessionEvents: ['SSE-001'],
    streamSessionSummary: ['SUMM-001'],
    getSessionPlan: ['PLAN-003'],
    sendSessionMessage: ['MSG-001', 'MSG-002', 'MSG-004'],
    getOutcomes: ['LIFE-004'],
    generateOutcome: ['OUT-001'],
    listDecisions: ['DEC-002', 'PAGE-007', 'PAGE-008'],
    captureDecision: ['DEC-001', 'PAGE-007', 'IDEM-002'],
    exportSession: ['EXP-005', 'EXP-006'],
    createSessionExport: ['EXP-005', 'EXP-006'],
    listShares: ['SHARE-001', 'PAGE-007'],
    createShare: ['SHARE-001', 'PAGE-007'],
    revokeShare: ['SHARE-003'],
    forkSession: ['LIFE-006'],
    continueSession: ['LIFE-005'],
    reconveneSession: ['SEVT-003'],
    cancelSession: ['LIFE-007', 'LIFE-008'],
    archiveSession: ['LIFE-009'],
    chatWithSynth: ['CHAT-001'],
    executeAction: ['ACT-002', 'ISO-008'],
    undoAction: ['ACT-003', 'ISO-008'],
    listWebhooks: ['HOOK-001'],
    createWebhook: ['HOOK-001'],
    getWebhook: ['HOOK-001'],
    deleteWebhook: ['HOOK-001'],
    updateWebhook: ['HOOK-015'],
    enableWebhook: ['HOOK-009'],
    listWebhookDeliveries: ['HOOK-007'],
    listWebhooksUnversioned: ['PAGE-007', 'HOOK-016'],
    createWebhookUnversioned: ['HOOK-016'],
    getWebhookUnversioned: ['HOOK-016'],
    deleteWebhookUnversioned: ['HOOK-017'],
    updateWebhookUnversioned: ['HOOK-017'],
    enableWebhookUnversioned: ['HOOK-018'],
    listWebhookDeliveriesUnversioned: ['PAGE-007'],
    listIntegrations: ['CONT-005', 'PAGE-007'],
    listSynths: ['CONT-005', 'PAGE-003'],
    listModes: ['CONT-005', 'PAGE-007'],
    getCredits: ['CRED-001', 'CONT-005', 'ISO-009'],
  },
  /** A: a board-lineup start; B: a decision-brief start (seed "Sessions"). */
  startRequestVariants: { A: ['LIFE-001'], B: ['LIFE-002'] },
  startResponseVariants: { A1: ['VER-004'], A2: ['LIFE-001'], B: ['LIFE-002'] },
  /** The seed's envelope (`event`, `data`) and the service's published one (`id`, `type`, `data`): a target sends one. */
  webhookEnvelopes: { seed: ['HOOK-002'], published: [] },
  problemTypes: {
    'invalid-request': ['PROB-006'],
    unauthorized: ['AUTH-001'],
    'insufficient-credits': ['CRED-002'],
    'tier-required': ['TIER-001', 'TIER-002'],
    'not-found': ['PROB-011', 'PROB-014'],
    'method-not-allowed': ['PROB-012'],
    conflict: ['IDEM-003', 'LIFE-011'],
    'payload-too-large': ['PROB-010'],
    'unsupported-media-type': ['PROB-009'],
    'rate-limited': ['RATE-001'],
    'internal-error': ['CONT-006'],
    'request-timeout': ['PROB-001'],
    // Designed and optional: a service may answer it while unavailable, which a conforming run never meets.
    'service-unavailable': ['CONT-006'],
  },
  webhookEvents: {
    'session.created': ['SEVT-001'],
    'session.complete': ['HOOK-002'],
    'session.failed': ['SEVT-005'],
    'session.cancelled': ['HOOK-007'],
    'session.continued': ['SEVT-002'],
    'session.reconvened': ['SEVT-004'],
    'outcomes.ready': ['OUT-002'],
    'action.executed': ['ACT-004'],
    'action.undone': ['ACT-005'],
    'share.created': ['SHARE-007'],
    'share.viewed': ['SHARE-008'],
    'decision.captured': ['DEC-003'],
    'legacy.session.complete': ['LEG-001'],
  },
  streamEvents: {
    'synth.message': ['SSE-001'],
    'round.complete': ['SSE-001'],
    'session.complete': ['SSE-001'],
    'session.failed': ['SSE-009'],
    'session.cancelled': ['SSE-008'],
    'summary.update': ['SUMM-002'],
    'summary.final': ['SUMM-002'],
  },
};

/** Kinds whose items are alternatives: a target sends one of them, so only seeing none is a gap. */
export const alternativeKinds: readonly ItemKind[] = ['webhookEnvelopes'];

/**
 * Documented items a conforming target never produces for a valid run: no 5xx (CONT-006: neither a fault
 * nor an unavailable service), and no `request-timeout`, which only a client too slow to send its request
 * meets.
 */
export const notExpectedInAConformingRun: Record<ItemKind, readonly string[]> = {
  startRequestVariants: [],
  startResponseVariants: [],
  webhookEnvelopes: [],
  problemTypes: ['internal-error', 'request-timeout', 'service-unavailable'],
  webhookEvents: [],
  streamEvents: [],
};
