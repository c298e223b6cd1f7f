/**
 * The contract's root extensions that code acts on, typed and read one way: `x-limits`,
 * `x-webhook-delivery`, `x-mcp-tools`, `x-api-versions`, `x-rate-limit-buckets`, `x-availability` and
 * `x-deprecation-policy`. The server, the mock, the conformance suite and the webhook tools read them
 * here, so a value lives in the contract only. Each reader checks the members it returns and throws a
 * `ContractExtensionError` naming the first one missing or mistyped; it reads a document once. The
 * extensions of single nodes (`x-alias-of`, `x-rate-limit-bucket`, `x-event-lists`, `x-deprecated-since`,
 * `x-problem-slug`, `x-stream-example`, `x-provenance`, `x-published-on`) are read here too, tolerantly, at
 * the end.
 * @module
 */
import type { OpenApiDocument } from './openapi-objects.js';

/** The contract lacks an extension member the code relies on, or gives it another type. */
export class ContractExtensionError extends Error {
  override name = 'ContractExtensionError';
}

type Node = Record<string, unknown>;
type Shape<T> = { expected: string; test: (value: unknown) => value is T };

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const number: Shape<number> = { expected: 'a number', test: (value): value is number => typeof value === 'number' };
const text: Shape<string> = { expected: 'a string', test: (value): value is string => typeof value === 'string' };
const node: Shape<Node> = { expected: 'an object', test: isNode };
const list: Shape<unknown[]> = { expected: 'an array', test: (value): value is unknown[] => Array.isArray(value) };

/** The member at `path` under `base` (named `where` in errors), checked against `shape`. */
function member<T>(base: unknown, where: string, path: Array<string | number>, shape: Shape<T>): T {
  let value = base;
  for (const token of path) {
    value = isNode(value) || Array.isArray(value) ? (value as Record<string | number, unknown>)[token] : undefined;
  }
  if (!shape.test(value)) {
    const name = [where, ...path]
      .filter((token) => token !== '')
      .join('.')
      .replace(/\.(\d+)(?=\.|$)/g, '[$1]');
    throw new ContractExtensionError(`the contract has no ${name} (${shape.expected})`);
  }
  return value;
}

/** Memoises a reader per document: each extension is read and checked once. */
function readOnce<T>(read: (document: Readonly<OpenApiDocument>) => T): (document: Readonly<OpenApiDocument>) => T {
  const done = new WeakMap<object, T>();
  return (document) => {
    if (!done.has(document)) {
      done.set(document, read(document));
    }
    return done.get(document) as T;
  };
}

export interface ContractLimits {
  /** `request_body_max_bytes`: a longer body is answered `413`. */
  requestBodyMaxBytes: number;
  /** `share_password_guesses`: wrong passwords a link takes per window, and the window in ms. */
  sharePasswordGuesses: { perLink: number; windowMs: number };
}

/** `x-limits`: the limits the server enforces (docs/limits.md). */
export const contractLimits = readOnce((document): ContractLimits => {
  const limits = member(document, '', ['x-limits'], node);
  return {
    requestBodyMaxBytes: member(limits, 'x-limits', ['request_body_max_bytes', 'value'], number),
    sharePasswordGuesses: {
      perLink: member(limits, 'x-limits', ['share_password_guesses', 'per_link'], number),
      windowMs: member(limits, 'x-limits', ['share_password_guesses', 'window_minutes'], number) * 60_000,
    },
  };
});

export interface WebhookDelivery {
  /** `attempt_timeout_seconds`, in ms: a receiver must answer an attempt within it. */
  attemptTimeoutMs: number;
  /** `replay_tolerance_seconds`: how far a delivery's timestamp may be from the receiver's clock. */
  replayToleranceSeconds: number;
  /** `event_lists.variants`: the events each published event list names, by variant number. */
  eventLists: ReadonlyMap<number, readonly string[]>;
}

/** `x-webhook-delivery`: how deliveries are sent and which events each published list names. */
export const webhookDelivery = readOnce((document): WebhookDelivery => {
  const name = 'x-webhook-delivery';
  const delivery = member(document, '', [name], node);
  const variants = ['event_lists', 'variants'];
  return {
    attemptTimeoutMs: member(delivery, name, ['attempt_timeout_seconds', 'value'], number) * 1000,
    replayToleranceSeconds: member(delivery, name, ['replay_tolerance_seconds'], number),
    eventLists: new Map(
      member(delivery, name, variants, list).map((_, index) => [
        member(delivery, name, [...variants, index, 'variant'], number),
        member(delivery, name, [...variants, index, 'events'], list).map((_, event) =>
          member(delivery, name, [...variants, index, 'events', event], text),
        ),
      ]),
    ),
  };
});

export interface McpTool {
  name: string;
  description: string;
  /** `endpoint.path`: where the tool's MCP server is, relative to the base URL. */
  endpointPath: string | undefined;
  /** `input.$ref` and `output.$ref`: the schemas of the tool's arguments and result. */
  inputRef: string;
  outputRef: string;
}

/** `x-mcp-tools`: the MCP tools the service offers beside its REST operations. */
export const mcpTools = readOnce((document): McpTool[] =>
  member(document, '', ['x-mcp-tools'], list).map((_, index) => {
    const tool = member(document, '', ['x-mcp-tools', index], node);
    const where = `x-mcp-tools[${index}]`;
    return {
      name: member(tool, where, ['name'], text),
      description: member(tool, where, ['description'], text),
      endpointPath: tool['endpoint'] === undefined ? undefined : member(tool, where, ['endpoint', 'path'], text),
      inputRef: member(tool, where, ['input', '$ref'], text),
      outputRef: member(tool, where, ['output', '$ref'], text),
    };
  }),
);

export interface ApiVersionCatalogue {
  /** The header a client pins a version with. */
  header: string;
  current: string;
  /** Every version a client may pin, in the contract's order. */
  supported: string[];
}

/** `x-api-versions`: the date versions (seed "Versioning" 4). */
export const apiVersionCatalogue = readOnce((document): ApiVersionCatalogue => {
  const name = 'x-api-versions';
  const versions = member(document, '', [name], node);
  return {
    header: member(versions, name, ['header'], text),
    current: member(versions, name, ['current'], text),
    supported: member(versions, name, ['supported'], list).map((_, index) =>
      member(versions, name, ['supported', index, 'version'], text),
    ),
  };
});

export interface RateLimitBuckets {
  windowSeconds: number;
  /** Each bucket's quota for Ultra, per window. */
  ultraPerMinute: ReadonlyMap<string, number>;
  /** Each tier's quota relative to Pro; a tier without a number (Enterprise: "custom per contract") has none. */
  tierMultipliers: Readonly<Record<string, unknown>>;
}

/** `x-rate-limit-buckets`: the buckets and their quotas (seed "Limits"). */
export const rateLimitBuckets = readOnce((document): RateLimitBuckets => {
  const name = 'x-rate-limit-buckets';
  const catalogue = member(document, '', [name], node);
  const buckets = member(catalogue, name, ['buckets'], list);
  return {
    windowSeconds: member(catalogue, name, ['window_seconds'], number),
    ultraPerMinute: new Map(
      buckets.map((_, index) => [
        member(catalogue, name, ['buckets', index, 'name'], text),
        member(catalogue, name, ['buckets', index, 'ultra_per_minute'], number),
      ]),
    ),
    tierMultipliers: member(catalogue, name, ['tier_multipliers'], node),
  };
});

/** `x-availability.tiers`: the tiers the API is available on. */
export const availableTiers = readOnce((document): string[] =>
  member(document, '', ['x-availability', 'tiers'], list).map((_, index) =>
    member(document, '', ['x-availability', 'tiers', index], text),
  ),
);

export interface DeprecationPolicy {
  breakingChanges: string;
  additiveChanges: string;
  /** The published notice variants (seed "Versioning"), each stating its period in words. */
  notice: Array<{ variant: string; text: string }>;
  /** `headers` (designed, optional): the headers a deprecated operation's answers carry; none when absent. */
  headers: string[];
}

/**
 * `x-deprecation-policy`: how the API changes and how long an old version stays; `undefined` for a
 * contract without one (`boardkit diff` reads revisions that may predate it).
 */
export const deprecationPolicy = readOnce((document): DeprecationPolicy | undefined => {
  const name = 'x-deprecation-policy';
  if ((document as Node)[name] === undefined) {
    return undefined;
  }
  const policy = member(document, '', [name], node);
  const headers = policy['headers'] === undefined ? [] : member(policy, name, ['headers'], list);
  return {
    breakingChanges: member(policy, name, ['breaking_changes'], text),
    additiveChanges: member(policy, name, ['additive_changes'], text),
    notice: member(policy, name, ['notice'], list).map((_, index) => ({
      variant: member(policy, name, ['notice', index, 'variant'], text),
      text: member(policy, name, ['notice', index, 'text'], text),
    })),
    headers: headers.map((_, index) => member(policy, name, ['headers', index], text)),
  };
});

/*
 * The extensions of one node of the contract (an operation, a response, a media type, a deprecated
 * member), all designed. A node without one is the usual case, so these readers return `undefined` (or
 * an empty list) for a member that is absent or of another type rather than throwing.
 */

const textAt = (object: object, name: string): string | undefined => {
  const value = (object as Node)[name];
  return typeof value === 'string' ? value : undefined;
};

/** `x-alias-of` on an operation: the operationId of the operation it publishes under a second path. */
export const aliasOf = (operation: object): string | undefined => textAt(operation, 'x-alias-of');

/** `x-rate-limit-bucket` on an operation: the bucket of `x-rate-limit-buckets` it counts in. */
export const rateLimitBucketOf = (operation: object): string | undefined => textAt(operation, 'x-rate-limit-bucket');

/** `x-event-lists` on a webhook operation: the published event lists (variant numbers) that name it. */
export const eventListsOf = (operation: object): number[] => {
  const lists = (operation as Node)['x-event-lists'];
  return Array.isArray(lists) ? lists.filter((entry): entry is number => typeof entry === 'number') : [];
};

/** `x-deprecated-since` beside `deprecated: true`: the day (`YYYY-MM-DD`) the deprecation was announced. */
export const deprecatedSince = (node: object): string | undefined => textAt(node, 'x-deprecated-since');

/** `x-problem-slug` on a response component: the problem type (by slug) it answers with. */
export const problemSlugOf = (response: object): string | undefined => textAt(response, 'x-problem-slug');

/** `x-stream-example` on an event-stream media type: the text of a whole stream of a short run. */
export const streamExampleOf = (media: object): string | undefined => textAt(media, 'x-stream-example');

/** `x-provenance` on any node: whether the seed states it, we designed it, or it is a published variant. */
export const provenanceOf = (node: object): string | undefined => textAt(node, 'x-provenance');

/** `x-published-on` beside `x-provenance: variant`: the published page that states the variant. */
export const publishedOn = (node: object): string | undefined => textAt(node, 'x-published-on');
