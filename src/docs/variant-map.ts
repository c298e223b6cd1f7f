/**
 * `docs/variant-map.md`: every place where the published descriptions disagree (seed introduction:
 * "every variant is listed and marked variant") and how the contract encodes it. The page is derived
 * from the `x-provenance: variant` marks, so a new variant shows up here when the contract is bundled.
 * @module
 */
import { aliasOf, provenanceOf } from '../contract/extensions.js';
import type { OpenApiDocument } from '../contract/load.js';
import type { ContractExample } from '../contract/examples.js';
import { listOperations } from '../contract/operations.js';
import { valueAt } from '../contract/pointer.js';
import { createContractValidator, type ContractValidator } from '../contract/validator.js';
import { listVariantSets, matchingBranches, type VariantSet } from '../contract/variants.js';
import { componentName, operationLabel, placeLabel } from './labels.js';
import { code, codeList, firstSentence, generatedBanner, table, textOf } from './markdown.js';
import { provenanceMarks } from './provenance-marks.js';
import { reachIndex, type ReachIndex } from './reach.js';
import { describeShape } from './shape.js';
import { announcedIn, extensionVariantGroups, renderValue } from './variant-extensions.js';

export const variantMapPath = 'docs/variant-map.md';

export type EncodingKind = 'variant-set' | 'union-enum' | 'alias' | 'extension' | 'other';

/** One place of disagreement and its encoding. */
export interface VariantEncoding {
  kind: EncodingKind;
  /** The heading of its section. */
  subject: string;
  /** What the descriptions disagree on, in one sentence. */
  summary: string;
  /** How the contract encodes the variants, in a few words. */
  encoding: string;
  /** The `x-provenance: variant` marks this entry accounts for (JSON Pointers). */
  covers: string[];
  /** The section's body (Markdown). */
  body: string;
}

type Node = Record<string, unknown>;

function nodeAt(document: OpenApiDocument, pointer: string): Node {
  return (valueAt(document, pointer) ?? {}) as Node;
}

function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** A named example by its name and place; an unnamed one by its value when that is short. */
function exampleLabel(example: ContractExample): string {
  if (example.name !== undefined) {
    return `${code(example.name)} (${placeLabel(example.location)})`;
  }
  const value = JSON.stringify(example.value);
  return value.length <= 60 ? code(value) : `the example of ${placeLabel(example.location)}`;
}

function reachedFrom(reach: ReachIndex, pointer: string): string {
  const labels = reach.operationsReaching(pointer).map(operationLabel);
  return labels.length === 0 ? '' : `Reached from ${count(labels.length, 'operation')}: ${codeList(labels)}.`;
}

function variantSetEncoding(
  document: OpenApiDocument,
  set: VariantSet,
  reach: ReachIndex,
  validator: ContractValidator,
): VariantEncoding {
  const name = componentName(set.pointer) ?? set.pointer;
  const node = nodeAt(document, set.pointer);
  const examplesOf = set.branches.map(() => [] as string[]);
  for (const example of set.examples.filter((candidate) => candidate.hasValue)) {
    const label = exampleLabel(example);
    for (const index of matchingBranches(validator, set, example.value)) {
      examplesOf[index]?.push(label);
    }
  }
  const rows = set.branches.map((branch, index) => [
    code(componentName(branch.target) ?? branch.target),
    describeShape(document, branch.target),
    (examplesOf[index] ?? []).join(', '),
  ]);
  const body = [
    textOf(node['description']).trim(),
    '',
    table(['variant', 'told apart by', 'examples'], rows),
    '',
    announcedIn(document, name),
    '',
    reachedFrom(reach, set.pointer),
  ];
  return {
    kind: 'variant-set',
    subject: name,
    summary: firstSentence(node['description'] as string | undefined),
    encoding: `\`oneOf\` of ${set.branches.length} schemas told apart by shape`,
    covers: [set.pointer, ...set.branches.map((branch) => branch.target)],
    body: body
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  };
}

function unionEnumEncoding(document: OpenApiDocument, pointer: string, reach: ReachIndex): VariantEncoding {
  const node = nodeAt(document, pointer);
  const values = (node['enum'] as unknown[]).map((value) => String(value));
  return {
    kind: 'union-enum',
    subject: componentName(pointer) ?? pointer,
    summary: firstSentence(node['description'] as string | undefined),
    encoding: `one \`enum\` holding the union of the published lists (${values.length} values)`,
    covers: [pointer],
    body: [textOf(node['description']).trim(), '', `Values: ${codeList(values)}.`, '', reachedFrom(reach, pointer)]
      .join('\n')
      .trim(),
  };
}

function aliasEncoding(document: OpenApiDocument): VariantEncoding | undefined {
  const operations = listOperations(document);
  const aliases = operations.filter((entry) => aliasOf(entry.operation) !== undefined);
  if (aliases.length === 0) {
    return undefined;
  }
  const rows = aliases.map((entry) => {
    const target = operations.find((candidate) => candidate.operationId === aliasOf(entry.operation));
    return [
      code(operationLabel(entry)),
      target === undefined ? '' : code(operationLabel(target)),
      textOf(provenanceOf(entry.operation)),
      entry.operation.summary ?? '',
    ];
  });
  return {
    kind: 'alias',
    subject: 'Paths published in two forms',
    summary: 'The descriptions publish some paths in two forms; both are kept.',
    encoding: `both paths present; each second one names the first in \`x-alias-of\` (${aliases.length} operations)`,
    covers: aliases.map((entry) => entry.pointer),
    body: [
      'Both forms of each path are in the contract and behave alike; the second names the first in `x-alias-of`, so',
      'clients of either description keep working (docs/decisions.md, "Addresses and versions").',
      '',
      table(['operation', 'alias of', 'provenance', 'summary'], rows),
    ].join('\n'),
  };
}

function extensionEncodings(document: OpenApiDocument): VariantEncoding[] {
  return extensionVariantGroups(document).map((group) => ({
    kind: 'extension',
    subject: placeLabel(group.pointer),
    summary: group.summary,
    encoding: `${count(group.members.length, 'entry', 'entries')} marked \`x-provenance: variant\``,
    covers: group.members,
    body: [group.summary, '', renderValue(valueAt(document, group.pointer))].join('\n').trim(),
  }));
}

/** Every encoding of a published disagreement, in the order the page presents them. */
export function collectVariantEncodings(document: OpenApiDocument): VariantEncoding[] {
  const reach = reachIndex(document);
  const validator = createContractValidator(document);
  const sets = listVariantSets(document).filter((set) => provenanceOf(nodeAt(document, set.pointer)) === 'variant');
  const encodings = sets.map((set) => variantSetEncoding(document, set, reach, validator));
  const covered = new Set(encodings.flatMap((encoding) => encoding.covers));
  const variantMarks = provenanceMarks(document).filter((mark) => mark.provenance === 'variant');
  for (const mark of variantMarks) {
    if (
      !covered.has(mark.pointer) &&
      componentName(mark.pointer) !== undefined &&
      Array.isArray(nodeAt(document, mark.pointer)['enum'])
    ) {
      encodings.push(unionEnumEncoding(document, mark.pointer, reach));
    }
  }
  const alias = aliasEncoding(document);
  encodings.push(...(alias === undefined ? [] : [alias]), ...extensionEncodings(document));
  const accounted = new Set(encodings.flatMap((encoding) => encoding.covers));
  const others = variantMarks.filter((mark) => !accounted.has(mark.pointer));
  if (others.length > 0) {
    encodings.push({
      kind: 'other',
      subject: 'Other variant parts',
      summary: 'Parts marked `x-provenance: variant` that none of the sections above explains.',
      encoding: 'marked `x-provenance: variant`',
      covers: others.map((mark) => mark.pointer),
      body: others.map((mark) => `- ${code(placeLabel(mark.pointer))} (${code(mark.pointer)})`).join('\n'),
    });
  }
  return encodings;
}

const sections: Record<EncodingKind, string> = {
  'variant-set': 'Request and response variants (`oneOf`)',
  'union-enum': 'Value lists published differently (union `enum`)',
  alias: 'Paths published in two forms (`x-alias-of`)',
  extension: 'Policies and schedules (root `x-` extensions)',
  other: 'Other variant parts',
};

/** A GitHub-style heading anchor. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

function heading(encoding: VariantEncoding): string {
  return encoding.kind === 'alias' || encoding.kind === 'other' ? encoding.subject : code(encoding.subject);
}

export function renderVariantMap(document: OpenApiDocument): string {
  const encodings = collectVariantEncodings(document);
  const summaryRows = encodings.map((encoding) => [
    `[${heading(encoding)}](#${anchor(heading(encoding))})`,
    encoding.summary,
    encoding.encoding,
  ]);
  const parts = [
    generatedBanner('Variant map', 'src/docs/variant-map.ts'),
    '',
    'The published descriptions of the service disagree on several points; the specification lists every',
    'alternative and marks it "variant". The contract keeps them all: a client must accept every variant and a',
    'service may emit any of them. This page lists each place the contract encodes such a disagreement',
    '(`x-provenance: variant`) and how. See [provenance.md](provenance.md) for the counts of stated, variant',
    'and designed parts, and [decisions.md](decisions.md) for the reasons behind the designed ones.',
    '',
    '## Summary',
    '',
    table(['where', 'what the descriptions disagree on', 'encoded as'], summaryRows),
  ];
  for (const kind of Object.keys(sections) as EncodingKind[]) {
    const ofKind = encodings.filter((encoding) => encoding.kind === kind);
    if (ofKind.length === 0) {
      continue;
    }
    parts.push('', `## ${sections[kind]}`);
    for (const encoding of ofKind) {
      parts.push('', `### ${heading(encoding)}`, '', encoding.body);
    }
  }
  return `${parts.join('\n')}\n`;
}
