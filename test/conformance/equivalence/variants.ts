/**
 * The table of other correct implementations: each row is one way the service may answer that the seed
 * (or HTTP, RFC 9457, the event-stream format) allows and the reference server does not take, or a few
 * such ways together, with the requirements it can touch (`only`; none means the whole suite).
 */
import { createHash } from 'node:crypto';
import type { ReferenceTargetOptions } from '../support/reference-target.js';
import type { Variant } from './proxy.js';

export interface VariantRow {
  name: string;
  /** How the proxy rewrites the answers; none when the server itself makes the choice. */
  variant?: Variant;
  /** A choice the reference server offers itself (an honest retry schedule cannot be faked by a proxy). */
  server?: ReferenceTargetOptions;
  /** Requirement IDs or categories the row can affect; the whole suite when absent. */
  only?: readonly string[];
}

type Json = unknown;

/** Applies `edit` to every object of `value`, inner ones first; free-form `metadata` maps are left as sent. */
function everyObject(value: Json, edit: (object: Record<string, Json>) => Record<string, Json>): Json {
  if (Array.isArray(value)) {
    return value.map((item) => everyObject(item, edit));
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  const entries = Object.entries(value).map(
    ([key, inner]) => [key, key === 'metadata' ? inner : everyObject(inner, edit)] as const,
  );
  return edit(Object.fromEntries(entries));
}

/**
 * Unknown members in every object of an answer of the API. MCP's JSON-RPC messages are left as they are:
 * their shape is the MCP specification's, not the contract's, and its SDKs read them strictly.
 */
const withUnknownMembers = (value: Json): Json =>
  value !== null && typeof value === 'object' && 'jsonrpc' in value
    ? value
    : everyObject(value, (object) => ({ ...object, x_added_later: { note: 'a member this kit does not know' } }));

/** Rewrites the JSON of every `data:` line of an event-stream block. */
function eachData(block: string, edit: (data: Json) => Json): string {
  return block.replace(/^data: ?(.*)$/gm, (line, data: string) => {
    try {
      return `data: ${JSON.stringify(edit(JSON.parse(data) as Json))}`;
    } catch {
      return line;
    }
  });
}

const isProblem = (body: Json): body is Record<string, Json> =>
  body !== null &&
  typeof body === 'object' &&
  typeof (body as { type?: unknown }).type === 'string' &&
  typeof (body as { status?: unknown }).status === 'number';

/** A session id of the published `ses_` form and a UUID, the form of the seed's webhook data, both ways. */
function uuidIds(): Variant {
  const toUuid = new Map<string, string>();
  const toPublished = new Map<string, string>();
  const uuidOf = (id: string): string => {
    const hex = createHash('sha256').update(id).digest('hex');
    const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    toUuid.set(id, uuid);
    toPublished.set(uuid, id);
    return uuid;
  };
  const outward = (text: string): string => text.replace(/ses_[0-9A-Za-z]{26}/g, (id) => toUuid.get(id) ?? uuidOf(id));
  return {
    request: (text) =>
      text.replace(
        /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}/g,
        (uuid) => toPublished.get(uuid) ?? uuid,
      ),
    text: outward,
    delivery: (body) => JSON.parse(outward(JSON.stringify(body))) as Json,
  };
}

/** A lineup start answered with A1, `{session_id}`, in place of A2. */
function startResponseA1(body: Json, { method, path, status }: { method: string; path: string; status: number }): Json {
  const id = (body as { id?: unknown } | null)?.id;
  return method === 'POST' && /^\/v1\/sessions(\?|$)/.test(path) && status === 202 && typeof id === 'string'
    ? { session_id: id }
    : body;
}

/** Every limit from 2 to 100 asked one lower, so each page holds fewer items than `limit` while more follow. */
const shorterPages = (text: string): string =>
  text.replace(/([?&]limit=)(\d+)/g, (whole, name: string, value: string) =>
    Number(value) >= 2 && Number(value) <= 100 ? `${name}${Number(value) - 1}` : whole,
  );

/** A session read without the members `Session.required` leaves optional: the estimate, and every null. */
function withoutOptionalMembers(
  body: Json,
  { method, path, status }: { method: string; path: string; status: number },
): Json {
  if (
    method !== 'GET' ||
    status !== 200 ||
    !/^\/v1\/sessions\/[^/?]+(\?|$)/.test(path) ||
    body === null ||
    typeof body !== 'object'
  ) {
    return body;
  }
  const required = new Set([
    'id',
    'session_type',
    'mode',
    'status',
    'v4_phase',
    'title',
    'synths',
    'rounds',
    'current_round',
    'memo',
    'created_at',
    'updated_at',
  ]);
  return Object.fromEntries(
    Object.entries(body).filter(
      ([key, value]) => required.has(key) || (key !== 'estimated_cost_credits' && value !== null),
    ),
  );
}

const upper = (name: string): string => name.toUpperCase();
const trainCase = (name: string): string =>
  name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());

/**
 * Ways of writing the same answer that touch separate layers of the wire (the problem type URI, the
 * Content-Type parameters, header case, JSON layout, transfer framing, the start response's form). Each
 * alone runs the whole suite, so they run in two combinations, one per side of each choice: a verdict
 * that changes names the combination, and its parts are the rows to try one at a time.
 */
export const wireForms = {
  'problem type URIs on another host with the same last segment': {
    json: (body) =>
      isProblem(body)
        ? {
            ...body,
            type: `https://errors.another-host.example/docs/problems/${String(body.type).split('/').pop() ?? ''}`,
          }
        : body,
  },
  'Content-Type with a charset on every answer': {
    contentType: (value) => (/;\s*charset=/i.test(value) ? value : `${value}; charset=utf-8`),
  },
  'Content-Type without a charset on any answer': { contentType: (value) => value.split(';')[0]!.trim() },
  'header names in upper case': { headerName: upper },
  'header names in Train-Case': { headerName: trainCase },
  'JSON with keys in reverse order, pretty-printed': {
    json: (body) => everyObject(body, (object) => Object.fromEntries(Object.entries(object).reverse())),
    serialise: (body) => `${JSON.stringify(body, null, 2)}\n`,
  },
  'chunked bodies': { chunks: 3 },
  'start response A1 (session_id only)': { json: startResponseA1 },
} satisfies Record<string, Variant>;

export type WireForm = keyof typeof wireForms;

/** A row that applies each of `forms`: their JSON edits in order, and each other member from the one form that has it. */
function together(...forms: WireForm[]): VariantRow {
  const parts: Variant[] = forms.map((form) => wireForms[form]);
  const written = parts.flatMap((part) => Object.keys(part).filter((key) => key !== 'json'));
  if (new Set(written).size !== written.length) {
    throw new Error(`${forms.join(', ')}: two forms write the same layer`);
  }
  const variant: Variant = {
    ...(Object.assign({}, ...parts) as Variant),
    json: (body, exchange) => parts.reduce((value, part) => part.json?.(value, exchange) ?? value, body),
  };
  return { name: `together: ${forms.join('; ')}`, variant };
}

export const variants: readonly VariantRow[] = [
  together(
    'problem type URIs on another host with the same last segment',
    'Content-Type with a charset on every answer',
    'header names in upper case',
    'JSON with keys in reverse order, pretty-printed',
    'chunked bodies',
  ),
  together(
    'Content-Type without a charset on any answer',
    'header names in Train-Case',
    'start response A1 (session_id only)',
  ),
  {
    // Three framings of one event-stream block, each allowed by the format, applied in turn.
    name: 'event streams with comment lines, CRLF line endings, and every event split across writes',
    variant: {
      stream: (block) =>
        `: ${'-'.repeat(8)} a comment before the event\n${block.replace(/^(data:.*)$/gm, ': a comment between fields\n$1')}`
          .replace(/\r?\n/g, '\r\n')
          .match(/[\s\S]{1,7}/g) ?? [block],
    },
    only: ['sse', 'contract'],
  },
  {
    name: '429 body without retry_after_s',
    variant: {
      json: (body, { status }) =>
        status === 429 && isProblem(body)
          ? Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'retry_after_s'))
          : body,
    },
    only: ['rate-limits', 'problems'],
  },
  {
    name: 'list pages shorter than limit while more items follow',
    variant: { request: shorterPages },
    only: ['pagination', 'isolation'],
  },
  {
    name: 'session reads without their optional members',
    variant: { json: withoutOptionalMembers },
    only: ['plans', 'lifecycle', 'long-poll', 'messages', 'credits'],
  },
  {
    name: 'a target that answers 60 ms slower',
    variant: { delayMs: 60 },
    only: ['long-poll', 'messages', 'plans', 'lifecycle'],
  },
  {
    name: 'a target whose sessions finish four times faster',
    server: { timeScale: 1_000 },
    only: ['long-poll', 'messages', 'plans', 'lifecycle'],
  },
  {
    name: 'a target that answers 60 ms slower: streams, deliveries and rate limits',
    variant: { delayMs: 60 },
    only: ['sse', 'summary-stream', 'session-events', 'webhooks', 'rate-limits'],
  },
  {
    name: 'a target whose sessions finish four times faster: streams, deliveries and rate limits',
    server: { timeScale: 1_000 },
    only: ['sse', 'summary-stream', 'session-events', 'webhooks', 'rate-limits'],
  },
  {
    name: 'the five-wait retry schedule (1, 5, 15, 60, 240 minutes)',
    server: { webhookRetries: 'five-waits' },
    only: ['webhooks'],
  },
  // A2's id has the `ses_` shape (seed "Session start response"), so an implementation with UUID session
  // ids answers a lineup start with A1 (docs/decisions.md "Time and other implementations").
  { name: 'session ids as UUIDs, starts answered A1', variant: { ...uuidIds(), json: startResponseA1 } },
];

/** A delivery in the service's published envelope (published-service facts), full or per-event short. */
function publishedEnvelope(form: 'full' | 'short'): Variant {
  const attempts = new Map<string, number>();
  return {
    delivery(body, headers) {
      const deliveryId = String(headers['x-service-delivery-id'] ?? '');
      const attempt = (attempts.get(deliveryId) ?? 0) + 1;
      attempts.set(deliveryId, attempt);
      // One event keeps its id over its retries, as the delivery keeps its delivery id.
      const id = `evt_${createHash('sha256').update(deliveryId).digest('hex').slice(0, 24)}`;
      const short = { id, type: body['event'], data: body['data'] };
      return form === 'short'
        ? short
        : {
            ...short,
            created_at: body['at'] ?? new Date().toISOString(),
            delivery_attempt: attempt,
            api_version: '2026-10-01',
          };
    },
  };
}

/**
 * Rows that hold once the contract and the suite take what the service publishes beyond the seed: the
 * published webhook envelope, and unknown members in every answer (the variant schemas that are told
 * apart by `additionalProperties: false` must be told apart by their members instead).
 */
export const openContractVariants: readonly VariantRow[] = [
  {
    name: 'extra unknown members in every JSON body, problem, event and delivery',
    variant: {
      json: withUnknownMembers,
      stream: (block) => [eachData(block, withUnknownMembers)],
      delivery: (body) => withUnknownMembers(body),
    },
  },
  { name: 'webhooks in the published envelope', variant: publishedEnvelope('full'), only: ['webhooks', 'isolation'] },
  {
    name: 'webhooks in the published per-event envelope (id, type, data)',
    variant: publishedEnvelope('short'),
    only: ['webhooks', 'isolation'],
  },
];
