/**
 * `Idempotency-Key` (seed "Limits": a repeated key within 24 hours returns the original response; the
 * contract: scoped per workspace, another body or a request still in flight is `409 conflict`). The
 * dispatcher claims the key before the handler runs and records what was sent; replays carry
 * `Idempotent-Replayed: true` (docs/decisions.md, after Stripe).
 * @module
 */
import { createHash } from 'node:crypto';
import type { StoredResponse } from '../ports/records.js';

export const idempotencyHeader = 'Idempotency-Key';
export const replayedHeader = 'Idempotent-Replayed';

export function storedResponse(
  status: number,
  headers: Record<string, string>,
  mediaType: string | undefined,
  payload: string | undefined,
): StoredResponse {
  return {
    status,
    headers: mediaType === undefined || payload === undefined ? headers : { ...headers, 'content-type': mediaType },
    body: payload ?? null,
  };
}

/** JSON with sorted keys, so that two serialisations of the same body hash alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonical).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What "the same request" means for a key: the operation, its path values and its body, by value. */
export function requestHashOf(operationId: string, path: unknown, body: unknown): string {
  return createHash('sha256')
    .update(`${operationId}\n${canonical(path)}\n${canonical(body ?? null)}`)
    .digest('hex');
}
