/**
 * What a handler is given besides its request: who is calling, the version the request is processed as,
 * and the server's services.
 * @module
 */
import type { HandlerContext, Principal } from '../ports/handlers.js';
import type { ApiKey, Workspace } from '../ports/records.js';
import type { Services } from '../ports/services.js';
import { internalError } from '../core/internal-errors.js';

/**
 * A class, with its getters on the prototype: an object literal with getters closing over each request's
 * values got a hidden class of its own per request, which V8 keeps in the old generation, and the young
 * collector then spent a sixth of the CPU of `GET /v1/sessions/{id}` (docs/benchmarks.md).
 */
class RequestContext implements HandlerContext {
  constructor(
    readonly services: Services,
    readonly apiVersion: string,
    private readonly principal: Principal | undefined,
    private readonly makeSignal: () => AbortSignal,
  ) {}

  get signal(): AbortSignal {
    return this.makeSignal();
  }

  get workspace(): Workspace {
    return this.required().workspace;
  }

  get apiKey(): ApiKey {
    return this.required().apiKey;
  }

  private required(): Principal {
    if (this.principal === undefined) {
      throw internalError('BOARDKIT_PIPELINE_NO_CALLER');
    }
    return this.principal;
  }
}

export function handlerContext(
  services: Services,
  apiVersion: string,
  principal: Principal | undefined,
  /** Made on first use (src/server/http/request-state.ts): most handlers never wait on anything. */
  signal: () => AbortSignal,
): HandlerContext {
  return new RequestContext(services, apiVersion, principal, signal);
}
