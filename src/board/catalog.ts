/**
 * The Synth library and the session modes, read from the bundled contract.
 *
 * The catalogue lives in one place, the contract's named examples `SynthCatalog` and `ModeCatalog` (the
 * answers of `GET /synths` and `GET /modes`); the simulator never keeps its own copy. Modes answer to their
 * slug and to their aliases: the seed's samples use `stress_test` and `decision` (docs/decisions.md).
 * @module
 */
import { loadContract, type OpenApiDocument } from '../contract/load.js';
import { valueAt } from '../contract/pointer.js';
import { BoardInputError } from './errors.js';
import type { Mode, Synth } from './types.js';

export const synthCatalogPointer = '#/components/examples/SynthCatalog/value/items';
export const modeCatalogPointer = '#/components/examples/ModeCatalog/value/items';

/** The mode a request without one is planned with (schema `Plan`, `mode`). */
export const defaultModeSlug = 'boardroom';

export interface BoardCatalog {
  readonly synths: readonly Synth[];
  readonly modes: readonly Mode[];
  /** The Synth with this slug, or `undefined`. */
  findSynth(slug: string): Synth | undefined;
  /** The mode with this slug or alias, or `undefined`. */
  findMode(slugOrAlias: string): Mode | undefined;
}

function itemsAt<T>(document: OpenApiDocument, pointer: string, required: readonly string[]): T[] {
  const items = valueAt(document, pointer);
  if (!Array.isArray(items) || items.length === 0) {
    throw new Error(`The contract has no catalogue at ${pointer}`);
  }
  items.forEach((item: unknown, index) => {
    const missing = required.filter((key) => item === null || typeof item !== 'object' || !(key in item));
    if (missing.length > 0) {
      throw new Error(`Catalogue entry ${pointer}/${index} lacks ${missing.join(', ')}`);
    }
  });
  return items as T[];
}

/** The catalogue of a bundled contract document. */
export function catalogOf(document: OpenApiDocument): BoardCatalog {
  const synths = itemsAt<Synth>(document, synthCatalogPointer, ['slug', 'name', 'role', 'voice']);
  const modes = itemsAt<Mode>(document, modeCatalogPointer, [
    'slug',
    'name',
    'aliases',
    'default_rounds',
    'description',
    'default_lineup',
  ]);
  const synthBySlug = new Map(synths.map((synth) => [synth.slug, synth]));
  const modeByName = new Map<string, Mode>();
  for (const mode of modes) {
    for (const name of [mode.slug, ...mode.aliases]) {
      if (modeByName.has(name)) {
        throw new Error(`Mode name ${name} is claimed twice in the catalogue`);
      }
      modeByName.set(name, mode);
    }
  }
  return {
    synths,
    modes,
    findSynth: (slug) => synthBySlug.get(slug),
    findMode: (slugOrAlias) => modeByName.get(slugOrAlias),
  };
}

let shared: BoardCatalog | undefined;

/** The catalogue of the bundled contract of this package, read once. */
export function boardCatalog(): BoardCatalog {
  shared ??= catalogOf(loadContract());
  return shared;
}

/** The mode a request names, by slug or alias; `pointer` locates `mode` in the request for the error. */
export function requireMode(slugOrAlias: string, pointer = '/mode'): Mode {
  const mode = boardCatalog().findMode(slugOrAlias);
  if (mode === undefined) {
    const known = boardCatalog()
      .modes.map((entry) => entry.slug)
      .join(', ');
    throw new BoardInputError(
      'unknown_mode',
      pointer,
      `Unknown mode "${slugOrAlias}"; the modes are ${known} (or an alias).`,
    );
  }
  return mode;
}

/** The Synth a request names; `pointer` locates it in the request for the error. */
export function requireSynth(slug: string, pointer: string): Synth {
  const synth = boardCatalog().findSynth(slug);
  if (synth === undefined) {
    throw new BoardInputError('unknown_synth', pointer, `Unknown Synth "${slug}"; GET /synths lists the library.`);
  }
  return synth;
}

/** A lineup as a request names it: 2 to 12 distinct Synths of the library (seed "Limits"). */
export function requireLineup(slugs: readonly string[], pointer = '/synths'): Synth[] {
  if (slugs.length < 2 || slugs.length > 12) {
    throw new BoardInputError('lineup_size', pointer, `A board seats 2 to 12 Synths, not ${slugs.length}.`);
  }
  const seen = new Set<string>();
  return slugs.map((slug, index) => {
    if (seen.has(slug)) {
      throw new BoardInputError('duplicate_synth', `${pointer}/${index}`, `Synth "${slug}" is named twice.`);
    }
    seen.add(slug);
    return requireSynth(slug, `${pointer}/${index}`);
  });
}
