/**
 * A rewriting HTTP proxy on 127.0.0.1 that turns the reference server into another implementation: it
 * forwards every request and changes how the answers look, one variant at a time (variants.ts), never
 * what they mean. It also sits on the webhook delivery path: a subscription to a loopback receiver is
 * made to the proxy instead, which learns the signing secret from the create response, so it can rewrite
 * a delivery and sign it again before passing it on. The same holds for a legacy per-key webhook URL that
 * the suite sets through the test control (`POST /_test/keys`), signed again over the body alone.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { signDelivery, signLegacyDelivery } from '../../../src/webhooks/signing.js';

/** One way another implementation may answer; every member is optional. */
export interface Variant {
  /** Rewrites a text the client sends (the path and query, a JSON body) before it goes upstream. */
  request?(text: string): string;
  /** Rewrites a parsed JSON response body (problems included). */
  json?(body: unknown, exchange: { method: string; path: string; status: number }): unknown;
  /** Writes a JSON body (default `JSON.stringify`). */
  serialise?(body: unknown): string;
  /** Rewrites every text of a response: JSON after `serialise`, event-stream blocks, redirects. */
  text?(text: string): string;
  /** Rewrites the Content-Type of an answer. */
  contentType?(value: string): string;
  /** Writes header names in another case. */
  headerName?(name: string): string;
  /** Sends JSON bodies in this many chunks (Transfer-Encoding: chunked). */
  chunks?: number;
  /** Re-frames an event-stream block into the writes sent (after `text`). */
  stream?(block: string): string[];
  /** Keeps an event stream open once the upstream one ends: a target that never finishes it. */
  holdStreams?: boolean;
  /** Rewrites a webhook delivery body (parsed) before it is signed again and passed on. */
  delivery?(body: Record<string, unknown>, headers: IncomingHttpHeaders): unknown;
  /** Answers this many milliseconds later: a target slower than the reference server. */
  delayMs?: number;
}

export interface RewritingProxy {
  baseUrl: string;
  close(): Promise<void>;
}

const deliveryPath = '/_deliveries/';

function read(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream
      .on('data', (chunk: Buffer) => chunks.push(chunk))
      .on('end', () => resolve(Buffer.concat(chunks)))
      .on('error', reject);
  });
}

function send(url: string, method: string, headers: IncomingHttpHeaders, body: Buffer): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method, headers: { ...headers, host: new URL(url).host, 'content-length': String(body.length) } },
      resolve,
    );
    outgoing.on('error', reject).end(body);
  });
}

const isJson = (type: string | undefined): boolean => /^application\/([\w.-]+\+)?json\b/i.test(type ?? '');
const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 2));

export async function startRewritingProxy(upstream: string, variant: Variant): Promise<RewritingProxy> {
  const secrets = new Map<string, string>();
  let base = '';
  const text = (value: string): string => variant.text?.(value) ?? value;
  // Upstream addresses become the proxy's; a proxied receiver address is shown as the client gave it.
  const outward = (value: string): string =>
    text(
      value
        .replace(new RegExp(`${base}${deliveryPath}([^"\\s]+)`, 'g'), (_, url: string) => decodeURIComponent(url))
        .split(upstream)
        .join(base),
    );

  async function forwardDelivery(incoming: IncomingMessage, response: ServerResponse, receiver: string): Promise<void> {
    let body = await read(incoming);
    const headers = { ...incoming.headers };
    const secret = secrets.get(receiver);
    if (variant.delivery !== undefined && secret !== undefined) {
      body = Buffer.from(
        JSON.stringify(
          variant.delivery(JSON.parse(body.toString('utf8')) as Record<string, unknown>, incoming.headers),
        ),
      );
      if (headers['x-mcp-signature'] !== undefined) {
        headers['x-mcp-signature'] = signLegacyDelivery({ secret, rawBody: body });
      } else {
        const timestamp = Math.floor(Date.now() / 1000);
        Object.assign(headers, {
          'x-service-timestamp': String(timestamp),
          'x-service-signature': signDelivery({ secret, timestamp, rawBody: body }),
        });
      }
    }
    const answer = await send(receiver, 'POST', headers, body);
    response.writeHead(answer.statusCode ?? 502).end(await read(answer));
  }

  async function forward(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = incoming.url ?? '/';
    if (path.startsWith(deliveryPath)) {
      return forwardDelivery(incoming, response, decodeURIComponent(path.slice(deliveryPath.length)));
    }
    let body = (await read(incoming)).toString('utf8');
    if (variant.delayMs !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, variant.delayMs));
    }
    let receiver: string | undefined;
    if (incoming.method === 'POST' && /^\/(v1\/)?webhooks\/?$/.test(path.split('?')[0]!) && body !== '') {
      // Only the suite's receivers on loopback are routed through the proxy; other addresses (the URL
      // guard's 0.0.0.0) reach the server as they were sent.
      body = body.replace(
        /"url"\s*:\s*"(http:\/\/127\.0\.0\.1:\d+\/[^"]*)"/,
        (_, url: string) => ((receiver = url), `"url":"${base}${deliveryPath}${encodeURIComponent(url)}"`),
      );
    }
    if (incoming.method === 'POST' && /\/keys$/.test(path.split('?')[0]!) && body !== '') {
      body = body.replace(
        /"legacy_webhook_url"\s*:\s*"(http:\/\/127\.0\.0\.1:\d+\/[^"]*)"/,
        (_, url: string) => (
          (receiver = url),
          `"legacy_webhook_url":"${base}${deliveryPath}${encodeURIComponent(url)}"`
        ),
      );
    }
    const upstreamAnswer = await send(
      `${upstream}${variant.request?.(path) ?? path}`,
      incoming.method ?? 'GET',
      incoming.headers,
      Buffer.from(variant.request?.(body) ?? body),
    );
    const status = upstreamAnswer.statusCode ?? 502;
    const headers: Array<[string, string]> = [];
    for (let index = 0; index < upstreamAnswer.rawHeaders.length; index += 2) {
      const [name, value] = [upstreamAnswer.rawHeaders[index]!, upstreamAnswer.rawHeaders[index + 1]!];
      if (!/^(content-length|transfer-encoding|connection|keep-alive)$/i.test(name)) {
        headers.push([
          name,
          /^content-type$/i.test(name)
            ? (variant.contentType?.(value) ?? value)
            : /^location$/i.test(name)
              ? outward(value)
              : value,
        ]);
      }
    }
    const type = upstreamAnswer.headers['content-type'];
    const head = (length?: number): void => {
      const all = length === undefined ? headers : [...headers, ['content-length', String(length)] as [string, string]];
      response.writeHead(
        status,
        all.flatMap(([name, value]) => [variant.headerName?.(name) ?? name, value]),
      );
    };
    if (/^text\/event-stream/i.test(type ?? '')) {
      head();
      response.flushHeaders();
      // A client that goes away (the suite cuts a stream to resume it) takes the upstream stream with it.
      response.on('close', () => upstreamAnswer.destroy());
      const decoder = new TextDecoder();
      for await (const chunk of upstreamAnswer as AsyncIterable<Buffer>) {
        const block = outward(decoder.decode(chunk, { stream: true }));
        for (const piece of variant.stream?.(block) ?? [block]) {
          response.write(piece);
          await pause();
        }
      }
      if (variant.holdStreams !== true) {
        response.end();
      }
      return;
    }
    let answer = (await read(upstreamAnswer)).toString('utf8');
    if (isJson(type) && answer !== '') {
      const parsed = JSON.parse(answer) as unknown;
      const rewritten = variant.json?.(parsed, { method: incoming.method ?? 'GET', path, status }) ?? parsed;
      answer = variant.serialise?.(rewritten) ?? JSON.stringify(rewritten);
      const answered = rewritten as { signing_secret?: unknown; legacy_webhook_secret?: unknown } | null;
      const secret = answered?.signing_secret ?? answered?.legacy_webhook_secret;
      if (receiver !== undefined && typeof secret === 'string') {
        secrets.set(receiver, secret);
      }
    }
    const bytes = Buffer.from(outward(answer));
    const chunks = isJson(type) ? (variant.chunks ?? 0) : 0;
    if (chunks < 2) {
      head(bytes.length);
      response.end(bytes);
      return;
    }
    head();
    const size = Math.ceil(bytes.length / chunks);
    for (let start = 0; start < bytes.length; start += size) {
      response.write(bytes.subarray(start, start + size));
      await pause();
    }
    response.end();
  }

  const server = createServer((incoming, response) => {
    forward(incoming, response).catch((error: unknown) => {
      if (!response.headersSent) {
        response.writeHead(502, { 'content-type': 'text/plain' });
      }
      response.end(`proxy: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: base,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
