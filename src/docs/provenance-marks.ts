/**
 * Every `x-provenance` mark of the contract (openapi/README.md "Provenance"): where it is, what kind of
 * part carries it and its value, `stated`, `variant` or `designed`.
 * @module
 */
import { publishedOn } from '../contract/extensions.js';
import type { OpenApiDocument } from '../contract/load.js';
import { childPointer } from '../contract/pointer.js';
import { operationLabel, placeLabel, pointerTokens } from './labels.js';

export const provenances = ['stated', 'variant', 'designed'] as const;
export type Provenance = (typeof provenances)[number];

/** The kinds of part a mark sits on, in the order the provenance report lists them. */
export const partKinds = [
  'operation',
  'webhook',
  'schema',
  'property',
  'parameter',
  'header',
  'security scheme',
  'extension entry',
  'document',
  'other',
] as const;
export type PartKind = (typeof partKinds)[number];

export interface ProvenanceMark {
  pointer: string;
  kind: PartKind;
  /** A readable name: `POST /v1/sessions`, `Session`, `Session.key_hint`, `x-limits.page_limit`. */
  label: string;
  /** One of `provenances`, or whatever else a contract under review writes there. */
  provenance: string;
  /**
   * The page of the service's own documentation the part comes from (`x-published-on`), when it is one of
   * the facts those pages publish beyond the seed (the published-service description).
   */
  publishedOn?: string;
}

const componentKinds: Record<string, PartKind> = {
  parameters: 'parameter',
  headers: 'header',
  securitySchemes: 'security scheme',
};

/** `Session.memo.conditions` for `#/components/schemas/Session/properties/memo/properties/conditions`. */
function schemaPath(name: string, rest: string[]): string {
  const steps = rest.flatMap((token, index) => {
    const previous = rest[index - 1];
    if (previous === 'properties') {
      return [`.${token}`];
    }
    return token === 'items' ? ['[]'] : [];
  });
  return `${name}${steps.join('')}`;
}

/** Entries of the root extensions are named by their position and, when they have one, their own name. */
function entryName(node: Record<string, unknown>): string {
  const name = ['slug', 'name', 'version', 'variant']
    .map((key) => node[key])
    .find((value) => typeof value === 'string');
  return name === undefined ? '' : ` (${String(name)})`;
}

function classify(pointer: string, node: Record<string, unknown>): Pick<ProvenanceMark, 'kind' | 'label'> {
  const tokens = pointerTokens(pointer);
  const [root, first = '', second = '', ...rest] = tokens;
  if ((root === 'paths' || root === 'webhooks') && tokens.length === 3) {
    const source = root;
    return {
      kind: source === 'paths' ? 'operation' : 'webhook',
      label: operationLabel({ source, path: first, method: second as never }),
    };
  }
  if (root === 'components' && first === 'schemas') {
    return rest.length === 0
      ? { kind: 'schema', label: second }
      : { kind: 'property', label: schemaPath(second, rest) };
  }
  if (root === 'components' && componentKinds[first] !== undefined && rest.length === 0) {
    return { kind: componentKinds[first] ?? 'other', label: second };
  }
  if (root?.startsWith('x-') === true) {
    return { kind: 'extension entry', label: `${placeLabel(pointer)}${entryName(node)}` };
  }
  if (root === 'info' && tokens.length === 1) {
    return { kind: 'document', label: 'info' };
  }
  return { kind: 'other', label: pointer };
}

/** Every mark, in document order. */
export function provenanceMarks(document: OpenApiDocument): ProvenanceMark[] {
  const marks: ProvenanceMark[] = [];
  const visit = (value: unknown, pointer: string): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, childPointer(pointer, index)));
      return;
    }
    if (value === null || typeof value !== 'object') {
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      if (key === 'x-provenance') {
        const page = publishedOn(value);
        const published = page === undefined ? {} : { publishedOn: page };
        marks.push({
          pointer,
          provenance: String(child),
          ...published,
          ...classify(pointer, value as Record<string, unknown>),
        });
      } else if (key !== 'example' && key !== 'examples') {
        visit(child, childPointer(pointer, key));
      }
    }
  };
  visit(document, '#');
  return marks;
}
