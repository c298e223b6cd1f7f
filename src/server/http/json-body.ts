/**
 * Reading a JSON request body (RFC 8259) from its bytes. Three things are refused with `400
 * invalid-request` before anything else looks at the value: bytes that are not UTF-8 (RFC 8259 §8.1: JSON
 * exchanged between systems must be UTF-8; decoding them leniently would store U+FFFD in place of what
 * was sent), nesting deeper than `maxJsonDepth` (every later step that walks the value, Ajv, the
 * idempotency hash, `JSON.stringify` into the store, recurses, and a body of 1 MiB can nest 500,000
 * levels deep), and text that is not JSON.
 * @module
 */
import { ProblemError } from '../core/problems.js';

/**
 * The deepest nesting of arrays and objects a body may have (designed). The contract's deepest request
 * is a few levels; free-form members (an action's `parameters`) get ample room below this.
 */
export const maxJsonDepth = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function refuse(detail: string, pointerDetail: string): ProblemError {
  return new ProblemError(400, detail, { errors: [{ pointer: '#/body', detail: pointerDetail }] });
}

/** The deepest nesting of `[` and `{` in JSON text, ignoring brackets inside strings. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) {
        index += 1;
      } else if (code === 0x22) {
        inString = false;
      }
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      deepest = Math.max(deepest, depth);
    } else if (code === 0x5d || code === 0x7d) {
      depth -= 1;
    }
  }
  return deepest;
}

export function parseJsonBody(raw: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw refuse('The request body is not valid UTF-8.', 'must be UTF-8 (RFC 8259 §8.1)');
  }
  if (nestingDepth(text) > maxJsonDepth) {
    throw refuse(
      `The request body nests arrays and objects deeper than ${maxJsonDepth} levels.`,
      `must not nest deeper than ${maxJsonDepth} levels`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw refuse('The request body is not valid JSON.', (error as Error).message);
  }
}
