/**
 * One delivery attempt on the wire: the signed headers and the POST (seed "Webhook subscriptions").
 *
 * node:http is used rather than fetch so that the URL guard decides the address connected to: the host is
 * resolved and checked once, and the socket's lookup answers with exactly those addresses, leaving no
 * window for a second DNS answer to point elsewhere (DNS rebinding). Redirects are never followed: a 3xx is
 * a failed attempt, since following it would reach a URL nobody checked.
 * @module
 */
import { request as httpRequest, STATUS_CODES, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { deliveryHeaders, legacyDeliveryHeaders, webhookContentType, webhookUserAgent } from './headers.js';
import type { TargetKind } from './outbox.js';
import { signDelivery, signLegacyDelivery } from './signing.js';
import { checkWebhookUrl, type ResolvedAddress, type UrlGuardOptions } from './url-guard.js';

export interface SignedHeadersInput {
  kind: TargetKind;
  secret: string;
  event: string;
  deliveryId: string;
  /** Unix seconds at signing; every attempt is signed anew. */
  timestamp: number;
  body: string;
}

/** The request headers of one attempt: `X-Service-*` for subscriptions, `X-Mcp-*` for the legacy URL. */
export function signedHeaders(input: SignedHeadersInput): OutgoingHttpHeaders {
  const { kind, secret, event, deliveryId, timestamp, body } = input;
  const names = kind === 'legacy' ? legacyDeliveryHeaders : deliveryHeaders;
  const signature =
    kind === 'legacy'
      ? signLegacyDelivery({ secret, rawBody: body })
      : signDelivery({ secret, timestamp, rawBody: body });
  return {
    'Content-Type': webhookContentType,
    'User-Agent': webhookUserAgent,
    [names.event]: event,
    [names.signature]: signature,
    [names.timestamp]: String(timestamp),
    [names.deliveryId]: deliveryId,
  };
}

export interface PostInput extends UrlGuardOptions {
  url: string;
  headers: OutgoingHttpHeaders;
  body: string;
  /** The receiver must answer within this time (`x-webhook-delivery.attempt_timeout_seconds`: 10). */
  timeoutMs: number;
  /** Keep the receiver's headers and the start of its body (the developer tools show them). */
  keepResponse?: boolean;
}

/** What the receiver answered, when `keepResponse` asked for it. */
export interface KeptResponse {
  headers: IncomingHttpHeaders;
  /** The body as text, cut after `keptBodyLimit` bytes. */
  body: string;
}

/** How much of a receiver's answer is kept: enough to show, never a memory risk. */
export const keptBodyLimit = 64 * 1024;

export interface PostResult {
  /** The receiver's status; `null` when no response arrived. */
  responseCode: number | null;
  /** Why the attempt failed; `null` for a 2xx. */
  error: string | null;
  durationMs: number;
  response?: KeptResponse;
}

/** Answers the socket's lookup with the addresses the guard already checked. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all === true) {
      callback(null, addresses);
      return;
    }
    const [first] = addresses as [ResolvedAddress];
    callback(null, first.address, first.family);
  };
}

function describeStatus(code: number): string | null {
  if (code >= 200 && code <= 299) {
    return null;
  }
  const answer = `Receiver answered ${code} ${STATUS_CODES[code] ?? ''}`.trimEnd();
  return code >= 300 && code <= 399 ? `${answer}; redirects are not followed.` : `${answer}.`;
}

/** POSTs one attempt. Never rejects: every failure is described in the result. */
export async function postDelivery(input: PostInput): Promise<PostResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const check = await checkWebhookUrl(input.url, input);
  if (!check.ok) {
    return { responseCode: null, error: `Not sent: ${check.reason}`, durationMs: elapsed() };
  }
  const signal = AbortSignal.timeout(input.timeoutMs);
  const send = check.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PostResult>((settle) => {
    let settled = false;
    let kept: KeptResponse | undefined;
    const finish = (responseCode: number | null, error: string | null): void => {
      if (!settled) {
        settled = true;
        settle({ responseCode, error, durationMs: elapsed(), ...(kept === undefined ? {} : { response: kept }) });
      }
    };
    const timedOut = `No answer within ${input.timeoutMs / 1000} seconds.`;
    const fail = (error: Error): void =>
      finish(null, signal.aborted ? timedOut : `Request failed: ${error.message || error.name}.`);
    const request = send(
      check.url,
      {
        method: 'POST',
        headers: { ...input.headers, 'Content-Length': Buffer.byteLength(input.body) },
        signal,
        // A fresh connection per attempt: the pinned lookup belongs to this request only.
        agent: false,
        lookup: pinnedLookup(check.addresses),
      },
      (response) => {
        const code = response.statusCode ?? 0;
        // The body is read to its end (the attempt lasts until then) and discarded, unless asked for.
        if (input.keepResponse === true) {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (size < keptBodyLimit) {
              chunks.push(chunk.subarray(0, keptBodyLimit - size));
              size += chunk.length;
            }
          });
          response.on('end', () => {
            kept = { headers: response.headers, body: Buffer.concat(chunks).toString('utf8') };
          });
        } else {
          response.resume();
        }
        response.on('end', () => finish(code, describeStatus(code)));
        response.on('error', fail);
        response.on('close', () => finish(null, signal.aborted ? timedOut : 'The response ended early.'));
      },
    );
    request.on('error', fail);
    request.end(input.body);
  });
}
