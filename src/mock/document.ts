/**
 * The document the mock serves: the bundled contract with the changes Prism needs to answer every
 * operation as the contract says (docs: mocks/README.md "How the mock differs from the contract"):
 * 1. **Event streams as text.** A `text/event-stream` media type describes one event as an object
 *    (its per-event schema and named examples). Prism refuses to serialise an object as text
 *    (`500 NO_COMPLEX_OBJECT_TEXT`), so each named example becomes the wire text of its event, the media
 *    type's `x-stream-example` (a whole run) is added first as the example `stream`, and the schema
 *    becomes the list of those texts, which is what Prism then validates the body against.
 * 2. **Routing problems.** The 404 and 405 fallback operations of `fallbacks.ts`, which describe what the
 *    front door (`front.ts`) answers from its route table; Prism itself is given the contract's
 *    operations only (`createPrismDocument`), so it never scores them.
 * 2a. **Webhook samples.** `GET /_webhooks/<event>` answers each webhook's body examples, in both
 *    published envelopes (`webhook-samples.ts`), since Prism ignores the `webhooks` section.
 * 3. **Links to the mock.** Example bodies carry absolute URLs under the contract's default `{base_url}`
 *    (`events_url`, `outcomes_url`, …); they are rewritten to the mock's base URL so a client can follow them.
 * Everything else, every operation, schema and example, is the contract's own.
 * @module
 */
import { streamExampleOf } from '../contract/extensions.js';
import type { OpenApiDocument } from '../contract/load.js';
import { childPointer, resolve } from '../contract/pointer.js';
import { formatEvent, isEventStreamEvent } from '../contract/sse.js';
import { walkContract } from '../contract/walk.js';
import { addMethodNotAllowed, addUnknownPaths } from './fallbacks.js';
import { addWebhookSamples } from './webhook-samples.js';

/** The name of the example holding a whole stream (the media type's `x-stream-example`). */
export const streamExampleName = 'stream';

export const eventStreamMediaType = 'text/event-stream';

export interface MockDocumentOptions {
  /** The mock's base URL, e.g. `http://127.0.0.1:4010`: the `{base_url}` the contract's paths hang from. */
  baseUrl: string;
}

interface ExampleObject {
  summary?: string;
  value?: unknown;
}

/** The default of the `base_url` server variable (the contract's `servers[0]`). */
export function contractBaseUrl(document: OpenApiDocument): string | undefined {
  const server = document.servers?.[0];
  return server?.variables?.['base_url']?.default;
}

function withBaseUrl(contract: OpenApiDocument, baseUrl: string): OpenApiDocument {
  const text = JSON.stringify(contract);
  const from = contractBaseUrl(contract);
  if (from === undefined || from === baseUrl) {
    return JSON.parse(text) as OpenApiDocument;
  }
  // Replaced inside the JSON text, so the patterns are the JSON-escaped strings.
  const escaped = (url: string): string => JSON.stringify(url).slice(1, -1);
  return JSON.parse(text.replaceAll(escaped(from), escaped(baseUrl))) as OpenApiDocument;
}

/** Rewrites every `text/event-stream` media type of `document` as text (changed in place). */
function serveEventStreamsAsText(document: OpenApiDocument): void {
  const suffix = `/content/${eventStreamMediaType.replace('/', '~1')}`;
  const streams = walkContract(document).carriers.filter(
    (carrier) => carrier.kind === 'media' && carrier.pointer.endsWith(suffix),
  );
  for (const { pointer, node } of streams) {
    const texts: Record<string, { summary?: string; value: string }> = {};
    const whole = streamExampleOf(node);
    if (whole !== undefined) {
      texts[streamExampleName] = { summary: 'A whole stream of a short run (x-stream-example)', value: whole };
    }
    for (const name of Object.keys((node['examples'] as object | undefined) ?? {})) {
      if (name in texts) {
        throw new Error(`${pointer}: the example name "${name}" is reserved by the mock for the whole stream`);
      }
      const example = resolve<ExampleObject>(document, childPointer(pointer, 'examples', name)).node;
      if (!isEventStreamEvent(example.value)) {
        throw new Error(`${pointer}/examples/${name} is not an event object (event, id, data)`);
      }
      const summary = example.summary === undefined ? {} : { summary: example.summary };
      texts[name] = { ...summary, value: formatEvent(example.value) };
    }
    node['examples'] = texts;
    delete node['example'];
    node['schema'] = {
      type: 'string',
      description: 'In the mock: the wire text of the events of the named examples.',
      enum: Object.values(texts).map((text) => text.value),
    };
  }
}

/**
 * The document Prism mocks: the contract's operations only, with their event streams as text and their
 * links pointing at the mock (changes 1 and 3). The routing problems are the front door's.
 */
export function createPrismDocument(contract: OpenApiDocument, options: MockDocumentOptions): OpenApiDocument {
  const document = withBaseUrl(contract, options.baseUrl);
  serveEventStreamsAsText(document);
  addWebhookSamples(document);
  return document;
}

/**
 * The document the mock serves, derived from the bundled contract (which is not changed): every answer
 * the mock gives, the routing problems of the front door included as operations (change 2), which is
 * what the example catalog lists.
 */
export function createMockDocument(contract: OpenApiDocument, options: MockDocumentOptions): OpenApiDocument {
  const document = createPrismDocument(contract, options);
  addMethodNotAllowed(document);
  addUnknownPaths(document);
  return document;
}
