/**
 * Resource ids: a prefix naming the kind (`ses_`, `wh_`, `shr_`, … as in the contract's examples) and
 * 26 random alphanumerics; outcome ids and user ids are UUIDs, as the contract publishes them.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { randomAlphanumeric } from '../../webhooks/ids.js';

export { randomAlphanumeric };

export type IdPrefix =
  'ses' | 'msg' | 'dec' | 'shr' | 'exp' | 'act' | 'int' | 'cnv' | 'wh' | 'dlv' | 'att' | 'cru' | 'key' | 'wsp' | 'task';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomAlphanumeric(26)}`;
}

export function newUuid(): string {
  return randomUUID();
}
