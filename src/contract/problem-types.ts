/**
 * The contract's problem catalogue (the root's `x-problem-types`, seed "Errors"): the slug, status, title
 * and condition of every problem type, and the base of their `type` URIs. The server, the mock, the docs
 * and the conformance suite all read it here, so the catalogue is read one way.
 * @module
 */
import type { OpenApiDocument } from './load.js';

export interface ProblemTypeEntry {
  slug: string;
  status: number;
  title: string;
  condition: string;
  /** Members a problem of this type carries besides RFC 9457's. */
  extensions?: string[];
  'x-provenance'?: string;
}

export interface ProblemTypes {
  /** A problem's `type` is this URI followed by the slug. */
  base_uri: string;
  types: ProblemTypeEntry[];
}

/** The members of a problem its type decides (RFC 9457 §3.1). */
export interface ProblemHead {
  type: string;
  title: string;
  status: number;
}

/** The catalogue as the contract states it. */
export function problemTypes(document: OpenApiDocument): ProblemTypes {
  const catalogue = (document as { 'x-problem-types'?: ProblemTypes })['x-problem-types'];
  if (catalogue === undefined) {
    throw new Error('the contract has no x-problem-types catalogue');
  }
  return catalogue;
}

/** `type`, `title` and `status` of the problem type named `slug`; a slug the catalogue lacks is a bug. */
export function problemHead(catalogue: ProblemTypes, slug: string): ProblemHead {
  const entry = catalogue.types.find((candidate) => candidate.slug === slug);
  if (entry === undefined) {
    throw new Error(`the contract's x-problem-types has no ${slug}`);
  }
  return { type: `${catalogue.base_uri}${slug}`, title: entry.title, status: entry.status };
}
