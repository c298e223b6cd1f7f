/**
 * Small tools the faults are written with.
 * @module
 */
import { createHmac } from 'node:crypto';
import type { BufferedResponse, ProxiedRequest, ProxyState, RelayedDelivery } from './types.js';

export const problemBase = 'https://problems.decision-board.example/';

/** Which provisioned key a request carries. */
export function keyOf(request: ProxiedRequest, state: ProxyState): 'a' | 'b' | undefined {
  const token = request.headers['authorization']?.replace(/^bearer\s+/i, '');
  return token === state.keys.a ? 'a' : token === state.keys.b ? 'b' : undefined;
}

export function is(request: ProxiedRequest, method: string, path: RegExp): boolean {
  return request.method === method && path.test(request.url.pathname);
}

/** Parses, changes and re-serialises a JSON body; other bodies are left alone. */
export function editJson(response: BufferedResponse, edit: (body: Record<string, unknown>) => void): void {
  try {
    const body = JSON.parse(response.text) as Record<string, unknown>;
    if (body !== null && typeof body === 'object') {
      edit(body);
      response.text = JSON.stringify(body);
    }
  } catch {
    // Not JSON: nothing to change.
  }
}

export function isProblem(response: BufferedResponse): boolean {
  return response.headers['content-type']?.startsWith('application/problem+json') === true;
}

/** A problem answered by the proxy itself, shaped like the server's. */
export function problem(status: number, slug: string, detail: string): BufferedResponse {
  return {
    status,
    headers: { 'content-type': 'application/problem+json', 'x-service-api-version': '2026-10-01' },
    text: JSON.stringify({ type: `${problemBase}${slug}`, title: slug, status, detail }),
  };
}

/** Re-signs a delivery the way the server does, so only the intended change is wrong. */
export function resign(delivery: RelayedDelivery, secret: string | undefined, timestamp = delivery.headers['x-service-timestamp']): void {
  if (secret === undefined || timestamp === undefined) {
    return;
  }
  delivery.headers['x-service-timestamp'] = timestamp;
  delivery.headers['x-service-signature'] = `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(delivery.body).digest('hex')}`;
}

/** The event name of a stream block. */
export function eventOf(block: string): string | undefined {
  return /^event: ?(.*)$/m.exec(block)?.[1];
}
