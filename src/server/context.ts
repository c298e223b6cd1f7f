/**
 * What a handler is given besides its request: who is calling, the version the request is processed as,
 * and the server's services.
 * @module
 */
import type { Services } from './services.js';
import type { ApiKey } from './store/api-keys.js';
import type { Workspace } from './store/workspaces.js';

export interface Principal {
  workspace: Workspace;
  apiKey: ApiKey;
}

export interface HandlerContext {
  readonly services: Services;
  /** The date version the request is processed as (its pin, or the workspace's default). */
  readonly apiVersion: string;
  /** The caller's workspace. Only operations without security lack one; reading it there is a bug. */
  readonly workspace: Workspace;
  readonly apiKey: ApiKey;
  /** Aborts when the client goes away, so that long polls and streams stop. */
  readonly signal: AbortSignal;
}

export function handlerContext(
  services: Services,
  apiVersion: string,
  principal: Principal | undefined,
  signal: AbortSignal,
): HandlerContext {
  function required(): Principal {
    if (principal === undefined) {
      throw new Error('this operation has no authenticated caller');
    }
    return principal;
  }
  return {
    services,
    apiVersion,
    signal,
    get workspace() {
      return required().workspace;
    },
    get apiKey() {
      return required().apiKey;
    },
  };
}
