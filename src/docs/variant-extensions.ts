/**
 * The variants recorded in the root `x-` extensions (deprecation notice, tier multipliers, retry
 * schedules) and the webhook event lists each webhook belongs to (`x-event-lists`), as Markdown.
 * @module
 */
import { eventListsOf, provenanceOf, publishedOn } from '../contract/extensions.js';
import type { OpenApiDocument } from '../contract/load.js';
import { listOperations } from '../contract/operations.js';
import { childPointer, pointerOf, valueAt } from '../contract/pointer.js';
import { placeLabel } from './labels.js';
import { code, codeList, table } from './markdown.js';

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export interface ExtensionVariantGroup {
  /** The array holding the variant entries, or the variant entry itself when it stands alone. */
  pointer: string;
  /** The entries marked `x-provenance: variant`. */
  members: string[];
  summary: string;
}

function rootExtensions(document: OpenApiDocument): Array<[string, unknown]> {
  return Object.entries(document as unknown as Node).filter(
    ([key]) => key.startsWith('x-') && key !== 'x-provenance-legend',
  );
}

interface FoundVariant {
  pointer: string;
  group: string;
  /** `x-published-on`: the page of the service's own documentation that publishes it. */
  page: string | undefined;
}

function variantNodes(value: unknown, pointer: string, parentIsArray: boolean, found: FoundVariant[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => variantNodes(item, childPointer(pointer, index), true, found));
    return;
  }
  if (!isNode(value)) {
    return;
  }
  if (provenanceOf(value) === 'variant') {
    const page = publishedOn(value);
    found.push({ pointer, group: parentIsArray ? pointer.slice(0, pointer.lastIndexOf('/')) : pointer, page });
  }
  for (const [key, child] of Object.entries(value)) {
    variantNodes(child, childPointer(pointer, key), false, found);
  }
}

/** `#/x-webhook-delivery/retry_schedule_variants` → "webhook delivery retry schedule". */
function humanised(pointer: string): string {
  return pointer
    .slice(2)
    .split('/')
    .map((token) =>
      token
        .replace(/^x-/, '')
        .replace(/_variants$/, '')
        .replace(/[_-]/g, ' '),
    )
    .join(' ');
}

/** The variant entries of the root extensions, grouped by the list that holds them. */
export function extensionVariantGroups(document: OpenApiDocument): ExtensionVariantGroup[] {
  const found: FoundVariant[] = [];
  for (const [key, value] of rootExtensions(document)) {
    variantNodes(value, pointerOf(key), false, found);
  }
  const groups = [...new Set(found.map((entry) => entry.group))];
  return groups.map((group) => {
    const entries = found.filter((entry) => entry.group === group);
    const members = entries.map((entry) => entry.pointer);
    const pages = [...new Set(entries.flatMap((entry) => (entry.page === undefined ? [] : [entry.page])))];
    const source = pages.length === 0 ? '' : ` (the service's ${pages.join(' and ')} page)`;
    const summary =
      members.length === 1
        ? `Published by one description only${source}: the ${humanised(group)}.`
        : `The descriptions${source} publish ${members.length} alternatives of the ${humanised(group)}.`;
    return { pointer: group, members, summary };
  });
}

function scalar(value: unknown): string {
  if (Array.isArray(value)) {
    return value.every((item) => !isNode(item)) ? value.map((item) => String(item)).join(', ') : JSON.stringify(value);
  }
  return isNode(value) ? code(JSON.stringify(value)) : String(value);
}

/** An extension value as a table: a list of records by column, a record by key. */
export function renderValue(value: unknown): string {
  if (Array.isArray(value) && value.every(isNode)) {
    const columns = [...new Set(value.flatMap((item) => Object.keys(item)))].filter((key) => key !== 'x-provenance');
    return table(
      columns,
      value.map((item) => columns.map((column) => scalar(item[column] ?? ''))),
    );
  }
  if (isNode(value)) {
    const entries = Object.entries(value).filter(([key]) => key !== 'x-provenance');
    return table(
      ['key', 'value'],
      entries.map(([key, item]) => [code(key), scalar(item)]),
    );
  }
  return scalar(value);
}

/** Where the root extensions name the schema `name` (keys ending in `schema`), as a sentence. */
export function announcedIn(document: OpenApiDocument, name: string): string {
  const places: string[] = [];
  const visit = (value: unknown, pointer: string): void => {
    if (!isNode(value)) {
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      if (key.endsWith('schema') && child === name) {
        places.push(placeLabel(childPointer(pointer, key)));
      }
      visit(child, childPointer(pointer, key));
    }
  };
  rootExtensions(document).forEach(([key, value]) => visit(value, pointerOf(key)));
  const matrix = valueAt(document, '#/x-webhook-delivery/event_lists/schema') === name ? eventListMatrix(document) : '';
  const sentence = places.length === 0 ? '' : `Named by the root extension ${codeList(places)}.`;
  return [sentence, matrix].filter((part) => part !== '').join('\n\n');
}

/** Which published event list names each webhook (`x-event-lists` on the webhook operations). */
export function eventListMatrix(document: OpenApiDocument): string {
  const webhooks = listOperations(document).filter((entry) => entry.source === 'webhooks');
  const lists = [...new Set(webhooks.flatMap((entry) => eventListsOf(entry.operation)))].sort((a, b) => a - b);
  if (lists.length === 0) {
    return '';
  }
  const rows = webhooks.map((entry) => {
    const inLists = eventListsOf(entry.operation);
    const note =
      inLists.length > 0 ? '' : entry.operation.deprecated === true ? 'deprecated; in no list' : 'in no list';
    return [code(entry.path), ...lists.map((list) => (inLists.includes(list) ? 'yes' : '')), note];
  });
  return [
    'Each webhook names the published lists it belongs to in `x-event-lists`:',
    '',
    table(['webhook', ...lists.map((list) => `list ${list}`), 'note'], rows),
  ].join('\n');
}
