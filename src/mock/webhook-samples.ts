/**
 * Webhook deliveries a client can fetch from the mock. Prism ignores the contract's `webhooks`, so a
 * receiver under development has nothing to read its sample bodies from; the mock document therefore
 * gets, for each webhook, `GET /_webhooks/<event>` answering the webhook's body examples: the seed's
 * envelope first (the default) and the same event in the envelope of the service's current webhooks page
 * (`<name>_published`) and in that page's per-event form (`<name>_published_short`), chosen with
 * `Prefer: example=<name>` as any other example (mocks/README.md "Webhook sample bodies"). The schema is
 * the webhook's own body schema, so Prism checks every sample against the contract.
 * @module
 */
import type { OpenApiDocument } from '../contract/load.js';
import { resolve } from '../contract/pointer.js';

type Node = Record<string, unknown>;

/** Where the samples hang from the mock's base URL; `_` keeps them apart from every contract path. */
export const webhookSamplesPrefix = '/_webhooks';

/** Marks an operation the mock added to serve a webhook's samples; its value is the webhook's name. */
export const webhookSampleMarker = 'x-mock-webhook-sample';

/** Adds `GET /_webhooks/<event>` for every webhook of `document` (changed in place). */
export function addWebhookSamples(document: OpenApiDocument): void {
  const paths = (document.paths ?? {}) as Record<string, Node>;
  for (const [name, item] of Object.entries((document.webhooks ?? {}) as Record<string, Node>)) {
    const post = resolve<Node>(document, '$ref' in item ? String(item['$ref']) : `#/webhooks/${name}`).node['post'] as
      Node | undefined;
    const body = post?.['requestBody'] as Node | undefined;
    const media = ((body?.['content'] as Node | undefined)?.['application/json'] ?? undefined) as Node | undefined;
    if (media === undefined) {
      continue;
    }
    paths[`${webhookSamplesPrefix}/${name}`] = {
      get: {
        summary: `Sample bodies of the ${name} webhook`,
        operationId: `webhookSample_${name.replaceAll('.', '_')}`,
        [webhookSampleMarker]: name,
        security: [],
        responses: {
          '200': {
            description: `A ${name} delivery body, in the envelope the chosen example shows.`,
            content: { 'application/json': { schema: media['schema'], examples: media['examples'] } },
          },
        },
      },
    };
  }
  document.paths = paths;
}
