/**
 * The answer of an operation whose handler is still a scaffolded stub (handler-stubs.ts): `501 Not
 * Implemented` (RFC 9110 §15.6.2) as a problem of type `about:blank` (RFC 9457 §4.2.1, whose title is the
 * status phrase). The catalogue has no slug for it because no operation of the contract documents a 501;
 * an unwritten handler breaks the contract, and response checking says so.
 * @module
 */
import type { OperationId, Reply } from '../ports/handlers.js';

export function notImplemented<K extends OperationId>(operationId: K): Reply<K> {
  const body = {
    type: 'about:blank',
    title: 'Not Implemented',
    status: 501,
    detail: `The operation ${operationId} is in the contract but its handler is not written yet.`,
  };
  // No `Reply<K>` has status 501 (none is documented), which is the point: the stub's own type stays
  // the operation's, and only this one answer steps outside it.
  return { status: 501, body } as unknown as Reply<K>;
}
