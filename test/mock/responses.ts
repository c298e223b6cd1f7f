/**
 * What the contract says about one response, checked on a real one: the status is documented, the
 * required headers are present, and the body validates against the contract (an event stream event by
 * event, each `data` line against its event's `contentSchema`; a problem's `status` equals the HTTP code).
 * Each check returns the list of what is wrong, empty when the response conforms.
 */
import type { MediaTypeObject, ResponseObject } from 'openapi-typescript';
import type { OpenApiDocument } from '../../src/contract/load.js';
import type { OperationEntry } from '../../src/contract/operations.js';
import { childPointer, resolve } from '../../src/contract/pointer.js';
import type { ContractValidator } from '../../src/contract/validator.js';
import { parseEventStream } from '../../src/contract/sse.js';

export interface ReceivedResponse {
  status: number;
  headers: Headers;
  text: string;
}

type Node = Record<string, unknown>;

export function mediaTypeOf(response: ReceivedResponse): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The pointer of the `data` schema of each event name of a stream's per-event `oneOf`. */
function eventDataSchemas(document: OpenApiDocument, schemaPointer: string): Map<string, string> {
  const schema = resolve<Node>(document, schemaPointer);
  const branches = (schema.node['oneOf'] as unknown[] | undefined) ?? [];
  return new Map(
    branches.map((_, index) => {
      const branch = resolve<{ properties: { event: { const: string }; data: Node } }>(
        document,
        childPointer(schema.pointer, 'oneOf', index),
      );
      return [branch.node.properties.event.const, childPointer(branch.pointer, 'properties', 'data', 'contentSchema')];
    }),
  );
}

function checkEventStream(
  document: OpenApiDocument,
  validator: ContractValidator,
  schemaPointer: string,
  text: string,
): string[] {
  const { events } = parseEventStream(text);
  if (events.length === 0) {
    return ['the event stream holds no event'];
  }
  const dataSchemas = eventDataSchemas(document, schemaPointer);
  return events.flatMap((event) => {
    const shape = validator.validate(schemaPointer, event);
    if (!shape.valid) {
      return [`event ${event.id}: ${JSON.stringify(shape.errors)}`];
    }
    const dataSchema = dataSchemas.get(event.event);
    const data = dataSchema === undefined ? undefined : validator.validate(dataSchema, JSON.parse(event.data));
    return data === undefined || data.valid ? [] : [`event ${event.id} data: ${JSON.stringify(data.errors)}`];
  });
}

export function checkResponse(
  document: OpenApiDocument,
  validator: ContractValidator,
  entry: OperationEntry,
  response: ReceivedResponse,
): string[] {
  const responses = entry.operation.responses ?? {};
  const key = String(response.status);
  if (!(key in responses)) {
    return [`status ${key} is not documented (${Object.keys(responses).join(', ')})`];
  }
  const documented = resolve<ResponseObject>(document, childPointer(entry.pointer, 'responses', key));
  const problems: string[] = [];
  for (const name of Object.keys(documented.node.headers ?? {})) {
    const header = resolve<{ required?: boolean }>(document, childPointer(documented.pointer, 'headers', name)).node;
    if (header.required === true && !response.headers.has(name)) {
      problems.push(`required header ${name} is missing`);
    }
  }
  const content = documented.node.content ?? {};
  if (Object.keys(content).length === 0) {
    return response.text === '' ? problems : [...problems, `expected no body, got ${response.text.slice(0, 80)}`];
  }
  const mediaType = mediaTypeOf(response);
  if (content[mediaType] === undefined) {
    return [...problems, `media type ${mediaType} is not documented (${Object.keys(content).join(', ')})`];
  }
  const media = resolve<MediaTypeObject>(document, childPointer(documented.pointer, 'content', mediaType));
  const schemaPointer = childPointer(media.pointer, 'schema');
  if (mediaType === 'text/event-stream') {
    return [...problems, ...checkEventStream(document, validator, schemaPointer, response.text)];
  }
  const body: unknown = JSON.parse(response.text);
  const result = validator.validate(schemaPointer, body);
  if (!result.valid) {
    problems.push(`body: ${JSON.stringify(result.errors)}`);
  }
  if (mediaType === 'application/problem+json' && (body as { status?: unknown }).status !== response.status) {
    problems.push(`problem status ${String((body as { status?: unknown }).status)} differs from ${response.status}`);
  }
  return problems;
}
