import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { normalise, toJson, toYaml } from '../../src/bundle/document.js';

describe('normalise', () => {
  test('sorts each components map by name and keeps every other order', () => {
    const document = {
      openapi: '3.1.1',
      info: { version: '1', title: 'T' },
      components: { schemas: { Zeta: {}, Alpha: {}, Mid: {} }, examples: { b: {}, a: {} } },
    };
    const result = normalise(document);
    expect(Object.keys(result)).toEqual(['openapi', 'info', 'components']);
    expect(Object.keys(result['info'] as object)).toEqual(['version', 'title']);
    const components = result['components'] as Record<string, object>;
    expect(Object.keys(components)).toEqual(['schemas', 'examples']);
    expect(Object.keys(components['schemas'] ?? {})).toEqual(['Alpha', 'Mid', 'Zeta']);
    expect(Object.keys(components['examples'] ?? {})).toEqual(['a', 'b']);
  });
});

describe('toYaml', () => {
  const document = { version: '2026-10-01', flag: 'yes', status: '200', count: 200, long: 'x '.repeat(80).trim() };

  test('quotes strings a YAML 1.1 reader would retype, so 1.1 and 1.2 read the same', () => {
    const text = toYaml(document);
    expect(text).toContain("version: '2026-10-01'");
    expect(text).toContain("flag: 'yes'");
    expect(text).toContain("status: '200'");
    expect(parse(text, { version: '1.1' })).toEqual(document);
    expect(parse(text, { version: '1.2' })).toEqual(document);
  });

  test('does not fold long lines and ends with a newline', () => {
    const text = toYaml(document);
    expect(text.split('\n').filter((line) => line.startsWith('long: '))).toHaveLength(1);
    expect(text.endsWith('\n')).toBe(true);
  });
});

describe('toJson', () => {
  test('is indented JSON with a trailing newline', () => {
    expect(toJson({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}\n');
  });
});
