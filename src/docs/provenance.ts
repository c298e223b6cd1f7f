/**
 * `docs/provenance.md`: how much of the contract the published specification states, how much is one of
 * its variants, and how much this kit designed where the specification says "not shown" — counted by
 * kind of part and listed in full.
 * @module
 */
import type { OpenApiDocument } from '../contract/load.js';
import { code, generatedBanner, table } from './markdown.js';
import { partKinds, provenanceMarks, provenances, type ProvenanceMark } from './provenance-marks.js';

export const provenancePath = 'docs/provenance.md';

const meaning: Record<string, string> = {
  stated: 'the published specification states it',
  variant: 'one of the alternatives the published descriptions disagree on (see [variant-map.md](variant-map.md))',
  designed: 'the specification says "not shown"; the choice and its reason are in [decisions.md](decisions.md)',
};

function plural(kind: string): string {
  return kind.endsWith('y') ? `${kind.slice(0, -1)}ies` : kind.endsWith('s') ? kind : `${kind}s`;
}

function countTable(marks: ProvenanceMark[]): string {
  const kinds = partKinds.filter((kind) => marks.some((mark) => mark.kind === kind));
  const count = (kind: string | undefined, provenance: string | undefined): string =>
    String(
      marks.filter(
        (mark) =>
          (kind === undefined || mark.kind === kind) && (provenance === undefined || mark.provenance === provenance),
      ).length,
    );
  const rows = kinds.map((kind) => [
    plural(kind),
    ...provenances.map((provenance) => count(kind, provenance)),
    count(kind, undefined),
  ]);
  rows.push([
    '**all parts**',
    ...provenances.map((provenance) => `**${count(undefined, provenance)}**`),
    `**${count(undefined, undefined)}**`,
  ]);
  return table(['part', ...provenances, 'total'], rows);
}

function listOf(marks: ProvenanceMark[], provenance: string): string {
  const parts: string[] = [];
  for (const kind of partKinds) {
    const ofKind = marks.filter((mark) => mark.kind === kind && mark.provenance === provenance);
    if (ofKind.length > 0) {
      parts.push(`- **${plural(kind)} (${ofKind.length}):** ${ofKind.map((mark) => code(mark.label)).join(', ')}`);
    }
  }
  return parts.join('\n');
}

/** The parts that come from the service's own pages, by page. */
function publishedList(marks: ProvenanceMark[]): string {
  const pages = [
    ...new Set(marks.flatMap((mark) => (mark.publishedOn === undefined ? [] : [mark.publishedOn]))),
  ].sort();
  return pages
    .map((page) => {
      const onPage = marks.filter((mark) => mark.publishedOn === page);
      return `- **${page} (${onPage.length}):** ${onPage.map((mark) => code(mark.label)).join(', ')}`;
    })
    .join('\n');
}

export function renderProvenance(document: OpenApiDocument): string {
  const marks = provenanceMarks(document);
  const unknown = marks.filter((mark) => !(provenances as readonly string[]).includes(mark.provenance));
  const parts = [
    generatedBanner('Provenance report', 'src/docs/provenance.ts'),
    '',
    'Every operation, webhook, schema, designed property, parameter and header of the contract, and each',
    'entry of its root extensions that records a choice, carries `x-provenance`:',
    '',
    ...provenances.map((provenance) => `- \`${provenance}\`: ${meaning[provenance] ?? ''};`),
    '',
    "A property without its own mark inherits its schema's, so the properties counted below are the ones whose",
    "provenance differs from their schema's (mostly designed members of stated schemas).",
    '',
    '## Counts',
    '',
    countTable(marks),
  ];
  for (const provenance of provenances) {
    parts.push('', `## ${provenance[0]?.toUpperCase() ?? ''}${provenance.slice(1)}`, '', listOf(marks, provenance));
  }
  const published = publishedList(marks);
  if (published !== '') {
    parts.push(
      '',
      "## Published by the service's own pages",
      '',
      "The service's current documentation pages (webhooks, API reference, MCP help, how sessions work, pricing,",
      'troubleshooting, marketing) publish facts beyond the specification, and in places disagree with it. They',
      'are one more published description: each such part is a `variant` and names its page in `x-published-on`.',
      '',
      published,
    );
  }
  if (unknown.length > 0) {
    parts.push(
      '',
      '## Unknown values',
      '',
      ...unknown.map((mark) => `- ${code(mark.label)}: ${code(mark.provenance)}`),
    );
  }
  return `${parts.join('\n')}\n`;
}
