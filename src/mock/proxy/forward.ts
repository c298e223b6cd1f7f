/**
 * The upstream hop of the proxy: the request sent on to the implementation as the client sent it, less
 * the hop-by-hop headers a proxy must not forward (RFC 9110 §7.6.1), with the upstream's `Host`.
 * @module
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** The end-to-end headers of a message, each as one value (a repeated `Set-Cookie` kept as a list). */
export function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = (headers['connection'] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  return Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined || hopByHop.has(name) || named.includes(name) ? [] : [[name, value]],
    ),
  );
}

/** One value per header, lists joined, as the checks read them. */
export function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]],
    ),
  );
}

export interface Forwarded {
  request: ClientRequest;
  response: Promise<IncomingMessage>;
}

/** Sends the request on to `upstream` (its base URL, path prefix included) and resolves with its answer. */
export function forward(
  upstream: string,
  method: string,
  target: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Forwarded {
  const url = new URL(`${upstream}${target}`);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const request = send(url, {
    method,
    headers: { ...endToEnd(headers), ...(body.length > 0 ? { 'content-length': String(body.length) } : {}) },
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
  });
  request.end(body);
  return { request, response };
}
