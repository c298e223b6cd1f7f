/**
 * The tools a new workspace is connected to. Connections are made in the console, which the reference
 * server does not have, so each workspace starts with the connections of the contract's own example of
 * `GET /integrations` (read from the bundled document, not copied), plus one disconnected tool so that
 * the refusal of an action on a tool that is not connected can be seen.
 * @module
 */
import type { OpenApiDocument } from '../../contract/load.js';
import { valueAt } from '../../contract/pointer.js';
import type { components } from '../../generated/openapi.js';
import { isoAt } from '../core/clock.js';
import { newId } from '../core/ids.js';
import type { Store } from '../ports/store.js';

type Integration = components['schemas']['Integration'];

const examplePointer =
  '#/paths/~1integrations/get/responses/200/content/application~1json/examples/connected/value/items';

const disconnectedTool: Omit<Integration, 'id' | 'connected_at'> = {
  provider: 'asana',
  name: 'Asana',
  status: 'disconnected',
  account_label: 'Acme Analytics (app.asana.com)',
  capabilities: ['create_task'],
};

export function connectDemoTools(document: OpenApiDocument, store: Store, workspaceId: string, now: number): void {
  const examples = valueAt(document, examplePointer);
  const connected = (Array.isArray(examples) ? examples : []) as Integration[];
  [...connected, disconnectedTool].forEach((tool, index) => {
    // One millisecond apart, so that "oldest connection first" is the example's order.
    const at = now + index;
    const integration: Integration = { ...tool, id: newId('int'), connected_at: isoAt(at) };
    store.integrations.insert(integration.id, workspaceId, integration, at);
  });
}
