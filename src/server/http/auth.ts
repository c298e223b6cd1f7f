/**
 * Bearer authentication (seed "Authentication" 1, 10) and the tier gate: the API is available on the
 * Ultra tier and Enterprise contracts (seed "What the service does" 7), other tiers get `403
 * tier-required`. A key past the end of its rotation grace is as unknown as a made-up one.
 * @module
 */
import { availableTiers } from '../../contract/extensions.js';
import type { Principal } from '../ports/handlers.js';
import type { Workspace } from '../ports/records.js';
import type { Services } from '../ports/services.js';
import { ProblemError } from '../core/problems.js';

const challenge = { 'WWW-Authenticate': 'Bearer realm="decision-board"' };

function unauthorized(detail: string): ProblemError {
  return new ProblemError(401, detail, {}, challenge);
}

export function authenticate(services: Services, authorization: string | undefined): Principal {
  if (authorization === undefined || authorization.trim() === '') {
    throw unauthorized('This operation needs an API key: send Authorization: Bearer <API_KEY>.');
  }
  // The auth scheme is case-insensitive (RFC 9110 §11.1).
  const match = /^bearer\s+(\S+)\s*$/i.exec(authorization);
  if (match?.[1] === undefined) {
    throw unauthorized('The Authorization header must be Bearer <API_KEY>.');
  }
  const apiKey = services.store.apiKeys.authenticate(match[1], services.clock.now());
  const workspace = apiKey === undefined ? undefined : services.store.workspaces.get(apiKey.workspaceId);
  if (apiKey === undefined || workspace === undefined) {
    throw unauthorized('The API key is not valid (unknown, revoked, or past its rotation grace).');
  }
  return { apiKey, workspace };
}

/** The API is available on the contract's `x-availability.tiers`. */
export function requireTier(services: Services, workspace: Workspace): void {
  const tiers = availableTiers(services.document);
  if (!tiers.includes(workspace.tier)) {
    throw new ProblemError(
      403,
      `The API is available on the ${tiers.join(' and ')} tiers; this workspace is on ${workspace.tier}.`,
    );
  }
}
