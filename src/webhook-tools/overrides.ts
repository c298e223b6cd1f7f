/**
 * `boardkit webhooks trigger --set path=value`: one field of a delivery body changed without a file (after
 * `stripe trigger --override`). The path is dotted from the envelope (`data.verdict`), with array indexes
 * in brackets (`data.items[0].title`); the value is JSON when it parses as JSON (`12`, `true`, `null`,
 * `{"a":1}`, `"12"`), and the text as it is otherwise.
 * @module
 */

export interface FieldOverride {
  /** As given, for messages. */
  path: string;
  /** Member names and array indexes, from the envelope down. */
  segments: Array<string | number>;
  value: unknown;
}

/** Thrown for an override that cannot be read or applied; nothing was sent. */
export class OverrideError extends Error {
  override name = 'OverrideError';
}

const segmentPattern = /([^.[\]]+)|\[(\d+)\]/g;

function segmentsOf(path: string): Array<string | number> {
  const segments: Array<string | number> = [];
  let consumed = '';
  for (const match of path.matchAll(segmentPattern)) {
    segments.push(match[2] === undefined ? match[1]! : Number(match[2]));
    consumed += match[0];
  }
  // Every character but the dots between members must belong to a segment.
  if (segments.length === 0 || consumed.length !== path.replaceAll('.', '').length || /^\.|\.$|\.\.|\.\[/.test(path)) {
    throw new OverrideError(`--set ${path}: not a path like data.verdict or data.items[0].title`);
  }
  return segments;
}

function valueOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Reads `path=value`; the first `=` ends the path. */
export function parseOverride(assignment: string): FieldOverride {
  const at = assignment.indexOf('=');
  if (at <= 0) {
    throw new OverrideError(`--set ${assignment}: expected path=value, e.g. data.credits_charged=12`);
  }
  const path = assignment.slice(0, at);
  return { path, segments: segmentsOf(path), value: valueOf(assignment.slice(at + 1)) };
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null;
}

/**
 * `body` with each override applied in order, the original untouched. A missing member is created as an
 * object; an index may name an element or the one after the last; anything else is refused.
 */
export function applyOverrides<T>(body: T, overrides: readonly FieldOverride[]): T {
  const copy = structuredClone(body);
  for (const { path, segments, value } of overrides) {
    let node: unknown = copy;
    segments.forEach((segment, index) => {
      const last = index === segments.length - 1;
      if (typeof segment === 'number' ? !Array.isArray(node) : !isContainer(node) || Array.isArray(node)) {
        const kind = typeof segment === 'number' ? 'an array' : 'an object';
        throw new OverrideError(`--set ${path}: ${segments.slice(0, index).join('.') || 'the body'} is not ${kind}`);
      }
      const container = node as Record<string | number, unknown> & { length?: number };
      if (typeof segment === 'number' && segment > (container.length ?? 0)) {
        throw new OverrideError(`--set ${path}: index ${segment} is past the end (${container.length ?? 0} elements)`);
      }
      if (last) {
        container[segment] = value;
      } else {
        container[segment] ??= typeof segments[index + 1] === 'number' ? [] : {};
        node = container[segment];
      }
    });
  }
  return copy;
}
