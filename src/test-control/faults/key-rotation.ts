/**
 * Faults in key rotation (seed "Authentication" 4, "Limits": the old key stays valid for 24 hours): the
 * grace cut short, the grace never ending, the new key refused. The control plane's rotations are
 * remembered here, old key to new, so the faults can tell the keys apart.
 * @module
 */
import type { Fault, FaultRequest, FaultState } from './types.js';

function rotations(state: FaultState): Map<string, string> {
  let known = state.memory.get('rotations') as Map<string, string> | undefined;
  if (known === undefined) {
    known = new Map();
    state.memory.set('rotations', known);
  }
  return known;
}

export function rememberRotation(state: FaultState, old: string, fresh: string): void {
  rotations(state).set(old, fresh);
}

function tokenOf(request: FaultRequest): string | undefined {
  return request.headers['authorization']?.replace(/^bearer\s+/i, '');
}

const refuse = (request: FaultRequest): void =>
  void (request.headers['authorization'] = 'Bearer sk_test_refusedbyafault0000');

export const keyRotationFaults: Fault[] = [
  {
    name: 'rotation-grace-cut-short',
    breaks: ['KROT-001'],
    request(request, state) {
      const token = tokenOf(request);
      if (token !== undefined && rotations(state).has(token)) {
        refuse(request);
      }
    },
  },
  {
    name: 'rotation-grace-never-ends',
    breaks: ['KROT-002'],
    request(request, state) {
      const token = tokenOf(request);
      const fresh = token === undefined ? undefined : rotations(state).get(token);
      const key = token === undefined ? undefined : state.services.store.apiKeys.lookup(token);
      if (
        fresh !== undefined &&
        key?.expiresAt !== null &&
        key?.expiresAt !== undefined &&
        state.clock.now() >= key.expiresAt
      ) {
        request.headers['authorization'] = `Bearer ${fresh}`;
      }
    },
  },
  {
    name: 'rotated-key-refused',
    breaks: ['KROT-003'],
    request(request, state) {
      const token = tokenOf(request);
      if (token !== undefined && [...rotations(state).values()].includes(token)) {
        refuse(request);
      }
    },
  },
];
