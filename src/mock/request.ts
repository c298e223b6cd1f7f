/**
 * The request as the front door reads it: the body read once, up to the contract's limit, and only when
 * the request was routed to an operation (an unknown path or method is answered without reading it); a
 * `Content-Length` over the limit is refused before a byte is read. The query as Prism's server parses it.
 * @module
 */
import type { IncomingMessage } from 'node:http';

/** `application/json` and any `application/*+json` (RFC 6839 §3.1), as Prism parses them. */
export const jsonMedia = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

export type Body = { kind: 'none' } | { kind: 'read'; bytes: Buffer } | { kind: 'too-large'; declared?: number };

/** Reads the body up to `limit` bytes; a declared length over it is refused without reading. */
export function readBody(incoming: IncomingMessage, limit: number): Promise<Body> {
  const declared = incoming.headers['content-length'];
  if (declared === '0' || (declared === undefined && incoming.headers['transfer-encoding'] === undefined)) {
    return Promise.resolve({ kind: 'none' });
  }
  if (declared !== undefined && Number(declared) > limit) {
    return Promise.resolve({ kind: 'too-large', declared: Number(declared) });
  }
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        incoming.off('data', onData);
        done({ kind: 'too-large' });
      } else {
        chunks.push(chunk);
      }
    };
    incoming.on('data', onData);
    incoming.once('end', () => done(size === 0 ? { kind: 'none' } : { kind: 'read', bytes: Buffer.concat(chunks) }));
    incoming.once('error', fail);
  });
}

export function queryOf(search: string): Record<string, string | string[]> {
  const params = new URLSearchParams(search);
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  return query;
}
