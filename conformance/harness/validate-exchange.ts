/**
 * Validates one exchange against the contract (Schemathesis' status, content-type, header and schema
 * conformance checks): the status is documented, the media type is documented, required headers are there
 * and every declared header matches its schema, and the body (or each event of a stream) matches its schema.
 * @module
 */
import {
  bodySchemaOf,
  documentedHeaders,
  documentedResponse,
  documentedStatuses,
  headerValue,
  type DocumentedResponse,
} from '../../src/contract/documented-response.js';
import { eventDataSchema } from '../../src/contract/event-schemas.js';
import type { OperationEntry } from '../../src/contract/operations.js';
import { parseEventStream } from '../../src/contract/sse.js';
import type { Contract } from './contract.js';
import { type Exchange, mediaTypeOf } from './exchange.js';

export interface Violation {
  requirement: 'CONT-001' | 'CONT-002' | 'CONT-003' | 'CONT-004';
  message: string;
  expected: unknown;
  got: unknown;
}

/** Headers the versioning sweep owns (VER-001), left out here so one fault fails one requirement. */
const headersCheckedElsewhere = new Set(['x-service-api-version']);

function errorsText(errors: ReadonlyArray<{ instancePath: string; message?: string }>): string[] {
  return errors.slice(0, 8).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`.trim());
}

export function validateExchange(contract: Contract, operation: OperationEntry, exchange: Exchange): Violation[] {
  const response = exchange.response;
  if (response === undefined) {
    return [];
  }
  const documented = documentedResponse(contract.document, operation.pointer, response.status);
  if (documented === undefined) {
    return [
      {
        requirement: 'CONT-001',
        message: `${operation.operationId ?? operation.path} does not document status ${response.status}`,
        expected: documentedStatuses(contract.document, operation.pointer),
        got: response.status,
      },
    ];
  }
  return [
    ...headerViolations(contract, documented, response.headers),
    ...bodyViolations(contract, documented, exchange),
  ];
}

function headerViolations(
  contract: Contract,
  documented: DocumentedResponse,
  headers: Record<string, string>,
): Violation[] {
  const violations: Violation[] = [];
  for (const header of documentedHeaders(contract.document, documented)) {
    const { name } = header;
    const lower = name.toLowerCase();
    if (headersCheckedElsewhere.has(lower)) {
      continue;
    }
    const value = headers[lower];
    if (value === undefined) {
      if (header.required) {
        violations.push({
          requirement: 'CONT-003',
          message: `required header ${name} is missing`,
          expected: name,
          got: null,
        });
      }
      continue;
    }
    if (header.schema === undefined) {
      continue;
    }
    const result = contract.validator.validate(header.schema, headerValue(header, value));
    if (!result.valid) {
      violations.push({
        requirement: 'CONT-003',
        message: `header ${name} does not match its schema`,
        expected: errorsText(result.errors),
        got: value,
      });
    }
  }
  return violations;
}

function bodyViolations(contract: Contract, documented: DocumentedResponse, exchange: Exchange): Violation[] {
  const response = exchange.response!;
  const documentedTypes = documented.mediaTypes;
  const mediaType = mediaTypeOf(response.headers['content-type']);
  if (documentedTypes.length === 0) {
    return response.body === ''
      ? []
      : [
          {
            requirement: 'CONT-002',
            message: 'the contract documents no body for this status',
            expected: 'no body',
            got: mediaType ?? 'a body without Content-Type',
          },
        ];
  }
  if (mediaType === undefined || !documentedTypes.includes(mediaType)) {
    return [
      {
        requirement: 'CONT-002',
        message: 'undocumented Content-Type',
        expected: documentedTypes,
        got: response.headers['content-type'] ?? null,
      },
    ];
  }
  const schemaPointer = bodySchemaOf(contract.document, documented, mediaType);
  if (schemaPointer === undefined) {
    return [];
  }
  if (mediaType === 'text/event-stream') {
    return streamViolations(contract, schemaPointer, response.body);
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return [
      {
        requirement: 'CONT-004',
        message: 'the body is not JSON',
        expected: mediaType,
        got: response.body.slice(0, 200),
      },
    ];
  }
  const result = contract.validator.validate(schemaPointer, body);
  return result.valid
    ? []
    : [
        {
          requirement: 'CONT-004',
          message: 'the body does not match its schema',
          expected: errorsText(result.errors),
          got: 'see the response body',
        },
      ];
}

/**
 * Each event is validated as the contract's per-event object (`{event, id, retry?, data}`), then its data
 * against the `contentSchema` of the branch its `event` selects: Ajv treats `contentSchema` as an
 * annotation only (JSON Schema 2020-12 §8.5), so the suite applies it.
 */
function streamViolations(contract: Contract, schemaPointer: string, text: string): Violation[] {
  const violations: Violation[] = [];
  for (const event of parseEventStream(text).events) {
    const result = contract.validator.validate(schemaPointer, event);
    if (!result.valid) {
      violations.push({
        requirement: 'CONT-004',
        message: `event ${event.event} (id ${event.id ?? 'none'}) does not match the event schema`,
        expected: errorsText(result.errors),
        got: event,
      });
      continue;
    }
    const dataSchema = dataSchemaOf(contract, schemaPointer, event.event);
    if (dataSchema === undefined) {
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      violations.push({
        requirement: 'CONT-004',
        message: `event ${event.event} data is not JSON`,
        expected: 'JSON',
        got: event.data,
      });
      continue;
    }
    const dataResult = contract.validator.validate(dataSchema, data);
    if (!dataResult.valid) {
      violations.push({
        requirement: 'CONT-004',
        message: `event ${event.event} data does not match its schema`,
        expected: errorsText(dataResult.errors),
        got: data,
      });
    }
  }
  return violations;
}

/** The pointer of the `contentSchema` of the stream event named `eventName`, through a `oneOf`. */
export function dataSchemaOf(contract: Contract, schemaPointer: string, eventName: string): string | undefined {
  return eventDataSchema(contract.document, schemaPointer, eventName);
}
