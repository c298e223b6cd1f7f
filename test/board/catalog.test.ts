import { describe, expect, test } from 'vitest';
import {
  boardCatalog,
  catalogOf,
  modeCatalogPointer,
  requireLineup,
  requireMode,
  requireSynth,
  synthCatalogPointer,
} from '../../src/board/catalog.js';
import { BoardInputError } from '../../src/board/errors.js';
import { hasFlavour } from '../../src/board/flavours.js';
import { hasPersona } from '../../src/board/personas.js';
import { valueAt } from '../../src/contract/pointer.js';
import { contract, expectValid } from './support.js';

function inputError(action: () => unknown): BoardInputError {
  try {
    action();
  } catch (error) {
    if (error instanceof BoardInputError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected a BoardInputError');
}

describe('the catalogue, read from the contract', () => {
  const catalog = boardCatalog();

  test('holds the 24 Synths and 10 modes of the contract examples, each valid against its schema', () => {
    expect(catalog.synths).toHaveLength(24);
    expect(catalog.modes).toHaveLength(10);
    expect(catalog.synths).toEqual(valueAt(contract, synthCatalogPointer));
    expect(catalog.modes).toEqual(valueAt(contract, modeCatalogPointer));
    catalog.synths.forEach((synth) => expectValid('Synth', synth));
    catalog.modes.forEach((mode) => expectValid('Mode', mode));
  });

  test('follows the contract: a Synth added to the document is in the catalogue', () => {
    const document = structuredClone(contract);
    const items = valueAt(document, synthCatalogPointer) as unknown[];
    items.push({
      slug: 'archivist',
      name: 'Ruth Ames',
      role: 'Archivist',
      voice: 'Remembers what was decided and why.',
    });
    const extended = catalogOf(document);
    expect(extended.findSynth('archivist')?.name).toBe('Ruth Ames');
    expect(boardCatalog().findSynth('archivist')).toBeUndefined();
  });

  test('refuses a document where two modes claim one alias', () => {
    const document = structuredClone(contract);
    const modes = valueAt(document, modeCatalogPointer) as Array<{ aliases: string[] }>;
    modes[1]?.aliases.push('decision');
    expect(() => catalogOf(document)).toThrow(/decision is claimed twice/);
  });

  test('resolves modes by slug and by alias', () => {
    expect(requireMode('stress_test').slug).toBe('the_arena');
    expect(requireMode('decision').slug).toBe('boardroom');
    expect(requireMode('the_arena').name).toBe('The Arena');
    for (const mode of catalog.modes) {
      for (const alias of mode.aliases) {
        expect(requireMode(alias)).toBe(mode);
      }
    }
  });

  test('answers unknown modes and Synths with typed errors that point into the request', () => {
    expect(inputError(() => requireMode('sprint'))).toMatchObject({ code: 'unknown_mode', pointer: '/mode' });
    expect(inputError(() => requireSynth('oracle', '/synth_id'))).toMatchObject({
      code: 'unknown_synth',
      pointer: '/synth_id',
    });
    expect(inputError(() => requireLineup(['cfo', 'cto', 'oracle']))).toMatchObject({
      code: 'unknown_synth',
      pointer: '/synths/2',
    });
  });

  test('seats 2 to 12 distinct Synths', () => {
    const slugs = catalog.synths.map((synth) => synth.slug);
    expect(requireLineup(slugs.slice(0, 2))).toHaveLength(2);
    expect(requireLineup(slugs.slice(0, 12))).toHaveLength(12);
    expect(inputError(() => requireLineup(slugs.slice(0, 1)))).toMatchObject({ code: 'lineup_size' });
    expect(inputError(() => requireLineup(slugs.slice(0, 13)))).toMatchObject({ code: 'lineup_size' });
    expect(inputError(() => requireLineup(['cfo', 'cto', 'cfo']))).toMatchObject({
      code: 'duplicate_synth',
      pointer: '/synths/2',
    });
  });

  test('the simulator has material for every Synth and every mode of the catalogue', () => {
    expect(catalog.synths.filter((synth) => !hasPersona(synth.slug)).map((synth) => synth.slug)).toEqual([]);
    expect(catalog.modes.filter((mode) => !hasFlavour(mode.slug)).map((mode) => mode.slug)).toEqual([]);
  });
});
