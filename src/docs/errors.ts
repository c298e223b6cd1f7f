/**
 * `docs/errors.md`: the error catalog (seed "Errors", the root's `x-problem-types`), the problem members,
 * which operations answer each problem type and an example body of each.
 * @module
 */
import { problemSlugOf, provenanceOf } from '../contract/extensions.js';
import type { ResponseObject } from '../contract/openapi-objects.js';
import type { OpenApiDocument } from '../contract/load.js';
import { listOperations, type OperationEntry } from '../contract/operations.js';
import { childPointer, resolve } from '../contract/pointer.js';
import { problemTypes, type ProblemTypeEntry } from '../contract/problem-types.js';
import { componentName, operationLabel } from './labels.js';
import { code, codeList, firstSentence, generatedBanner, table, textOf } from './markdown.js';

export const errorsPath = 'docs/errors.md';

type Node = Record<string, unknown>;

/** The problem response components (`x-problem-slug`) each response of an operation resolves to. */
function problemResponses(
  document: OpenApiDocument,
  entry: OperationEntry,
): Array<{ status: string; component: string; slug: string }> {
  return Object.keys(entry.operation.responses ?? {}).flatMap((status) => {
    const { node, pointer } = resolve<ResponseObject & Node>(
      document,
      childPointer(entry.pointer, 'responses', status),
    );
    const slug = problemSlugOf(node);
    const component = componentName(pointer, 'responses');
    return slug !== undefined && component !== undefined ? [{ status, component, slug }] : [];
  });
}

/** "every operation", "every operation except …" or the list, whichever is shortest to read. */
function whoAnswers(all: OperationEntry[], answering: OperationEntry[]): string {
  if (answering.length === 0) {
    return 'no operation declares it';
  }
  if (answering.length === all.length) {
    return `every operation (${all.length})`;
  }
  const labels = (entries: OperationEntry[]): string => codeList(entries.map(operationLabel));
  if (answering.length > all.length / 2) {
    return `${answering.length} of ${all.length} operations: all but ${labels(all.filter((entry) => !answering.includes(entry)))}`;
  }
  return `${answering.length} operations: ${labels(answering)}`;
}

function firstExample(document: OpenApiDocument, component: string): unknown {
  const response = resolve<ResponseObject>(document, `#/components/responses/${component}`).node;
  const media = response.content?.['application/problem+json'];
  const [first] = Object.keys(media?.examples ?? {});
  if (first === undefined || media === undefined) {
    return undefined;
  }
  const examplesPointer = childPointer(
    `#/components/responses/${component}`,
    'content',
    'application/problem+json',
    'examples',
    first,
  );
  return resolve<{ value?: unknown }>(document, examplesPointer).node.value;
}

function membersTable(document: OpenApiDocument): string {
  const problem = resolve<Node>(document, '#/components/schemas/Problem').node;
  const required = (problem['required'] as string[] | undefined) ?? [];
  const properties = (problem['properties'] ?? {}) as Record<string, Node>;
  const rows = Object.entries(properties).map(([name, schema]) => [
    code(name),
    textOf(schema['type']),
    required.includes(name) ? 'yes' : '',
    textOf(provenanceOf(schema) ?? provenanceOf(problem)),
    firstSentence(schema['description'] as string | undefined),
  ]);
  return table(['member', 'type', 'required', 'provenance', 'meaning'], rows);
}

function typeSection(
  document: OpenApiDocument,
  type: ProblemTypeEntry,
  baseUri: string,
  paths: OperationEntry[],
  webhooks: OperationEntry[],
): string {
  const answering = (entries: OperationEntry[]): Array<{ entry: OperationEntry; component: string }> =>
    entries.flatMap((entry) =>
      problemResponses(document, entry)
        .filter((response) => response.slug === type.slug)
        .map(({ component }) => ({ entry, component })),
    );
  const byService = answering(paths);
  const byReceivers = answering(webhooks);
  const facts = [
    ['type', code(`${baseUri}${type.slug}`)],
    ['title', type.title],
    ['when', type.condition],
    ['provenance', type['x-provenance'] ?? ''],
    ['extension members', type.extensions === undefined ? '' : codeList(type.extensions)],
    ['response component', codeList([...new Set(byService.map(({ component }) => component))])],
    ['answered by', whoAnswers(paths, [...new Set(byService.map(({ entry }) => entry))])],
  ].filter(([, value]) => value !== '');
  const parts = [`### ${type.status} ${code(type.slug)}`, '', table(['', 'value'], facts)];
  if (byReceivers.length > 0) {
    const components = [...new Set(byReceivers.map(({ component }) => component))];
    const description = components.map((component) =>
      firstSentence(resolve<ResponseObject>(document, `#/components/responses/${component}`).node.description),
    );
    parts.push('', `Webhook receivers answer it too (${codeList(components)}): ${description.join(' ')}`);
  }
  const [component] = new Set(byService.map((response) => response.component));
  const example = component === undefined ? undefined : firstExample(document, component);
  if (example !== undefined) {
    parts.push('', '```json', JSON.stringify(example, null, 2), '```');
  }
  return parts.join('\n');
}

export function renderErrors(document: OpenApiDocument): string {
  const catalog = problemTypes(document);
  const operations = listOperations(document);
  const paths = operations.filter((entry) => entry.source === 'paths');
  const webhooks = operations.filter((entry) => entry.source === 'webhooks');
  const summaryRows = catalog.types.map((type) => [
    String(type.status),
    code(type.slug),
    type.title,
    type.condition,
    type['x-provenance'] ?? '',
  ]);
  const parts = [
    generatedBanner('Error catalog', 'src/docs/errors.ts'),
    '',
    'Every error is an RFC 9457 (formerly RFC 7807) problem details object served as',
    '`application/problem+json`, with `status` equal to the HTTP status code. The last path segment of',
    `\`type\` is the error slug; the type URIs live under ${code(catalog.base_uri)}, a reserved \`.example\``,
    'domain that never resolves (docs/decisions.md, "Errors"). Clients must ignore members they do not know.',
    '',
    '## Catalog',
    '',
    table(['status', 'slug', 'title', 'when', 'provenance'], summaryRows),
    '',
    '## Members of a problem',
    '',
    membersTable(document),
    '',
    '## Problem types',
  ];
  for (const type of catalog.types) {
    parts.push('', typeSection(document, type, catalog.base_uri, paths, webhooks));
  }
  return `${parts.join('\n')}\n`;
}
