/**
 * The messages the proxy reads and writes itself: a request body read whole and parsed as its media type
 * says, the `sl-violations` header Prism's proxy lists violations in, its own problems (RFC 9457), and
 * the log line of a violation.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonMedia } from '../request.js';
import type { Finding, Violation } from './findings.js';

/** Prism keeps `sl-violations` under common header size limits the same way. */
const violationsHeaderMax = 8 * 1024 - 100;

export function readAll(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.once('end', () => resolve(Buffer.concat(chunks)));
    incoming.once('error', reject);
  });
}

export function violationsHeader(findings: readonly Finding[]): Record<string, string> {
  if (findings.length === 0) {
    return {};
  }
  const listed = findings.map((finding) => ({
    location: [finding.kind, ...finding.pointer.replace(/^#\//, '').split('/')],
    severity: 'Error',
    message: `${finding.pointer} ${finding.message}`,
  }));
  const text = JSON.stringify(listed);
  return { 'sl-violations': text.length > violationsHeaderMax ? text.slice(0, violationsHeaderMax) : text };
}

export function problem(response: ServerResponse, status: number, body: Record<string, unknown>, extra = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...extra,
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

export function parseBody(bytes: Buffer, contentType: string | undefined): { value: unknown; finding?: Finding } {
  if (bytes.length === 0) {
    return { value: undefined };
  }
  const text = bytes.toString('utf8');
  if (!jsonMedia.test(contentType ?? '')) {
    return { value: text };
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = `is not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
    return { value: text, finding: { kind: 'request', pointer: '#/body', message } };
  }
}

export function logLine(violation: Violation): string {
  const where = `${violation.method} ${violation.target}${violation.status === undefined ? '' : ` → ${violation.status}`}`;
  const counted = violation.counted ? '' : ' (not counted by --fail-on)';
  return `Violation: ${violation.kind} ${where}: ${violation.pointer} ${violation.message}${counted}\n`;
}
