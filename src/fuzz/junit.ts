/**
 * Reads the JUnit XML report that Schemathesis writes: one `<testcase>` per operation (or `Stateful tests`),
 * with a `<failure>` per failing test case (`message` is the check's code, e.g. `ST101`, the text the
 * whole finding with its reproducing `curl`), `<error>` for errors and `<skipped>` for skipped operations.
 *
 * The report comes from one known producer and is flat, so a small reader of exactly these elements is
 * enough; it decodes the five predefined entities and character references (XML 1.0 §4.6, §4.1).
 * @module
 */

export interface JunitFinding {
  kind: 'failure' | 'error' | 'skipped';
  /** The `message` attribute: the failure code for failures, the reason for skips. */
  message: string;
  text: string;
}

export interface JunitTestCase {
  /** The operation, e.g. `GET /v1/sessions/{id}`. */
  name: string;
  timeSeconds: number;
  findings: JunitFinding[];
}

const predefinedEntities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, name: string) => {
    if (name.startsWith('#x')) {
      return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    }
    if (name.startsWith('#')) {
      return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    }
    return predefinedEntities[name] ?? whole;
  });
}

function attributesOf(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [, name = '', value = ''] of tag.matchAll(/([\w:-]+)="([^"]*)"/g)) {
    attributes[name] = decodeXmlText(value);
  }
  return attributes;
}

export function parseJunit(xml: string): JunitTestCase[] {
  const cases: JunitTestCase[] = [];
  for (const match of xml.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attributes = attributesOf(match[1] ?? '');
    const findings: JunitFinding[] = [];
    for (const child of (match[2] ?? '').matchAll(/<(failure|error|skipped)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/g)) {
      findings.push({
        kind: child[1] as JunitFinding['kind'],
        message: attributesOf(child[2] ?? '')['message'] ?? '',
        text: decodeXmlText(child[3] ?? '').trim(),
      });
    }
    cases.push({
      name: attributes['name'] ?? '',
      timeSeconds: Number(attributes['time'] ?? 0),
      findings,
    });
  }
  return cases;
}
