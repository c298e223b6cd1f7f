/**
 * Exchanges: the request/response pairs the run sees, kept as evidence. Every verdict points at the
 * exchanges that justify it, and the sweeps (contract, problems, versioning) read them all at the end.
 * @module
 */
/** The checks read an answer's media type from the harness; it is the contract layer's reading. */
export { mediaTypeOf } from '../../src/contract/documented-response.js';

export interface RecordedRequest {
  method: string;
  url: string;
  /** Header names in lower case; Authorization is redacted. */
  headers: Record<string, string>;
  body?: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** The whole body as text; reports cut it after `evidenceBodyLimit` characters. */
  body: string;
}

export interface Exchange {
  id: number;
  /** The check that sent the request, or `discovery`. */
  check: string;
  request: RecordedRequest;
  response?: RecordedResponse;
  /** Why no response arrived (connection refused, timeout). */
  error?: string;
  /** Real time the request started, epoch ms. */
  startedAt: number;
  durationMs: number;
  /** The body was a `text/event-stream`; `body` holds the raw stream text. */
  stream?: boolean;
  /**
   * A request the target sent to the suite's webhook receiver, and the receiver's answer. Kept as
   * evidence only: the sweeps read the target's answers, never the receiver's.
   */
  inbound?: boolean;
}

/** Reports cut bodies after this many characters; validation always sees the whole body. */
export const evidenceBodyLimit = 8_192;

/** Every exchange of one run, in order. */
export class ExchangeLog {
  readonly #exchanges: Exchange[] = [];
  #next = 1;

  nextId(): number {
    return this.#next++;
  }

  add(exchange: Exchange): Exchange {
    this.#exchanges.push(exchange);
    return exchange;
  }

  all(): readonly Exchange[] {
    return this.#exchanges;
  }
}

/** `Bearer sk_test_…WXYZ`: keeps the scheme and the last four characters so evidence is traceable. */
export function redactAuthorization(value: string): string {
  const [scheme = '', ...rest] = value.split(' ');
  const token = rest.join(' ');
  if (token === '') {
    return value.length <= 4 ? '…' : `…${value.slice(-4)}`;
  }
  return `${scheme} ${token.length <= 8 ? '…' : `${token.slice(0, 8)}…${token.slice(-4)}`}`;
}

export function headersOf(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name.toLowerCase()] = value;
  });
  return record;
}

/** The parsed JSON body of an exchange, or `undefined` when it is not JSON. */
export function jsonOf(exchange: Exchange | undefined): unknown {
  const text = exchange?.response?.body;
  if (text === undefined || text === '') {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
