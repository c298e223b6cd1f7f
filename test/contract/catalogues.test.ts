/**
 * Request schemas that name a catalogue entry list exactly the catalogue's entries, so a schema-valid
 * request is one the service can serve and generated tests never send a value the schema allows and the
 * service refuses: the pinnable date versions are `x-api-versions.supported`, the mode slugs are the mode
 * catalogue's slugs and aliases, the Synth slugs are the library's 24.
 */
import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { resolve } from '../../src/contract/pointer.js';

interface ApiVersions {
  current: string;
  supported: Array<{ version: string }>;
}

const document = loadContract();

function enumOf(pointer: string): string[] {
  const schema = resolve<{ enum?: string[]; allOf?: Array<{ enum?: string[] }> }>(document, pointer).node;
  return [...(schema.enum ?? []), ...(schema.allOf ?? []).flatMap((part) => part.enum ?? [])].sort();
}

function catalogue<T>(name: string): T[] {
  return resolve<{ value: { items: T[] } }>(document, `#/components/examples/${name}`).node.value.items;
}

describe('catalogues', () => {
  test('the pinnable versions are the supported versions', () => {
    const versions = (document as unknown as { 'x-api-versions': ApiVersions })['x-api-versions'];
    const pinnable = enumOf('#/components/schemas/SupportedApiVersion');
    expect(pinnable).toEqual(versions.supported.map((entry) => entry.version).sort());
    expect(pinnable).toContain(versions.current);
    const pin = resolve<{ schema: { $ref: string } }>(document, '#/components/parameters/ApiVersionPin').node;
    expect(pin.schema.$ref).toBe('#/components/schemas/SupportedApiVersion');
  });

  test('the mode slugs are the catalogue slugs and aliases', () => {
    const modes = catalogue<{ slug: string; aliases?: string[] }>('ModeCatalog');
    expect(modes).toHaveLength(10);
    expect(enumOf('#/components/schemas/ModeChoice')).toEqual(
      modes.flatMap((mode) => [mode.slug, ...(mode.aliases ?? [])]).sort(),
    );
  });

  test('the Synth slugs are the library of 24', () => {
    const synths = catalogue<{ slug: string }>('SynthCatalog');
    expect(synths).toHaveLength(24);
    expect(enumOf('#/components/schemas/SynthChoice')).toEqual(synths.map((synth) => synth.slug).sort());
  });
});
