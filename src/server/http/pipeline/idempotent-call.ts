/**
 * The idempotency step (`Idempotency-Key` on a write, seed "Idempotency"): the claim of the key, the
 * handler's work and the answer recorded for it commit in one transaction, so a crash leaves all of them
 * (a retry is replayed) or none (a retry runs afresh), never a claim stuck in flight.
 * @module
 */
import { ProblemError } from '../../core/problems.js';
import type { Claim, StoredResponse } from '../../ports/records.js';
import type { Services } from '../../ports/services.js';
import { requestHashOf, storedResponse } from '../idempotency.js';
import type { Route } from '../routes.js';
import type { ValidatedRequest } from '../request-validation.js';
import type { RouteReply } from './handler-call.js';
import { definedHeaders } from './send-reply.js';
import { jsonTextOf } from '../../core/json-text.js';
import { internalError } from '../../core/internal-errors.js';

/** What the key decided: the handler's fresh answer, or the answer recorded for an earlier request. */
export type IdempotentOutcome = { fresh: RouteReply } | { replay: StoredResponse };

export function callIdempotently(
  services: Services,
  route: Route,
  scope: { workspaceId: string; key: string },
  request: ValidatedRequest,
  run: () => RouteReply | Promise<RouteReply>,
): IdempotentOutcome {
  const { workspaceId, key } = scope;
  const requestHash = requestHashOf(route.operationId, request.path, request.body);
  const { idempotency } = services.store;
  const outcome = services.store.transaction(
    (): Exclude<Claim, { outcome: 'claimed' }> | { outcome: 'answered'; result: RouteReply } => {
      const claim = idempotency.claim(workspaceId, key, requestHash, services.clock.now());
      if (claim.outcome !== 'claimed') {
        return claim;
      }
      const answer = run();
      if (answer instanceof Promise) {
        throw internalError('BOARDKIT_PIPELINE_IDEMPOTENT_ASYNC', route.operationId);
      }
      // Server faults are not recorded, so a retry with the same key can succeed (Stripe does the same).
      if (answer.status >= 500) {
        idempotency.release(workspaceId, key);
      } else {
        const payload = answer.body === undefined ? undefined : jsonTextOf(answer.body);
        idempotency.complete(
          workspaceId,
          key,
          storedResponse(answer.status, definedHeaders(answer), route.mediaTypes.get(answer.status), payload),
        );
      }
      return { outcome: 'answered', result: answer };
    },
  );
  switch (outcome.outcome) {
    case 'mismatch':
      throw new ProblemError(
        409,
        'This Idempotency-Key was used with another request; use a new key for a new request.',
      );
    case 'in_flight':
      throw new ProblemError(409, 'A request with this Idempotency-Key is still being processed; retry later.');
    case 'replay':
      return { replay: outcome.response };
    default:
      return { fresh: outcome.result };
  }
}
