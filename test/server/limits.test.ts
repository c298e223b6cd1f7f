/**
 * The contract's `x-limits` is the one catalogue of limits (docs/limits.md is checked against it); the
 * server's own constants must say the same, so a limit changed in one place and not the other fails here.
 * The limits the server reads from the contract (src/contract/extensions.ts) need no constant.
 */
import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { valueAt } from '../../src/contract/pointer.js';
import { maxJsonDepth } from '../../src/server/http/json-body.js';
import { defaultPageLimit } from '../../src/server/core/pagination.js';
import { passwordGuessLimit, passwordGuessWindowMs } from '../../src/server/domain/share-viewer/views.js';
import { rotationGraceMs } from '../../src/server/store/api-keys.js';
import { idempotencyWindowMs } from '../../src/server/store/idempotency.js';
import { replayToleranceSeconds } from '../../src/webhooks/signing.js';

const contract = loadContract();
const limit = (pointer: string): unknown => valueAt(contract, `#/x-limits/${pointer}`);

describe("the server enforces the contract's x-limits", () => {
  test.each([
    ['request_body_max_depth/value', maxJsonDepth],
    ['page_limit/default', defaultPageLimit],
    ['share_password_guesses/per_link', passwordGuessLimit],
    ['share_password_guesses/window_minutes', passwordGuessWindowMs / 60_000],
    ['idempotency_window_hours', idempotencyWindowMs / 3_600_000],
    ['old_key_validity_after_rotation_hours', rotationGraceMs / 3_600_000],
    ['webhook_replay_tolerance_seconds', replayToleranceSeconds],
  ])('%s', (pointer, enforced) => {
    expect(limit(pointer)).toBe(enforced);
  });
});
