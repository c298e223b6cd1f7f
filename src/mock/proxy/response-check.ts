/**
 * The proxy's check of an answer, with the contract's own validator (src/contract/validator.ts, the Ajv
 * 2020 setup the reference server and the conformance suite use): the status is documented for the
 * operation (exactly or as a range, OAS 3.1 §4.8.16.2), the media type is one the status documents,
 * required headers are there and each documented header matches its schema, and a JSON body matches the
 * schema of its media type. Event streams are checked event by event as they pass (`stream-check.ts`).
 * @module
 */
import {
  bodySchemaOf,
  documentedHeaders,
  documentedResponse,
  documentedStatuses,
  headerValue,
  mediaTypeOf,
  type DocumentedResponse,
} from '../../contract/documented-response.js';
import type { OpenApiDocument } from '../../contract/load.js';
import type { OperationEntry } from '../../contract/operations.js';
import { escapeToken } from '../../contract/pointer.js';
import type { ContractValidator } from '../../contract/validator.js';
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { Finding } from './findings.js';

export interface Contract {
  document: OpenApiDocument;
  validator: ContractValidator;
}

/** Ajv's errors as findings, each pointing into the part of the message it is about. */
export function schemaFindings(kind: Finding['kind'], prefix: string, errors: readonly ErrorObject[]): Finding[] {
  return errors.slice(0, 20).map((error) => ({
    kind,
    pointer: `${prefix}${error.instancePath}`,
    message: error.message ?? 'does not match the schema',
    expected: { keyword: error.keyword, params: error.params, schemaPath: error.schemaPath },
  }));
}

function headerFindings(
  contract: Contract,
  documented: DocumentedResponse,
  headers: Record<string, string>,
): Finding[] {
  return documentedHeaders(contract.document, documented).flatMap((header): Finding[] => {
    const value = headers[header.name.toLowerCase()];
    const pointer = `#/header/${escapeToken(header.name)}`;
    if (value === undefined) {
      return header.required
        ? [{ kind: 'response', pointer, message: `the required header ${header.name} is missing` }]
        : [];
    }
    if (header.schema === undefined) {
      return [];
    }
    const result = contract.validator.validate(header.schema, headerValue(header, value));
    return result.valid
      ? []
      : schemaFindings('response', pointer, result.errors).map((finding) => ({ ...finding, got: value }));
  });
}

/** What the status and headers alone tell, and the schema the body must match (`undefined`: none). */
export interface HeadCheck {
  findings: Finding[];
  bodySchema?: string;
  mediaType?: string;
}

export function checkHead(
  contract: Contract,
  operation: OperationEntry,
  status: number,
  headers: Record<string, string>,
): HeadCheck {
  const documented = documentedResponse(contract.document, operation.pointer, status);
  if (documented === undefined) {
    const expected = documentedStatuses(contract.document, operation.pointer);
    const message = `${operation.operationId ?? operation.path} does not document status ${status}`;
    return { findings: [{ kind: 'response', pointer: '#/status', message, expected, got: status }] };
  }
  const findings = headerFindings(contract, documented, headers);
  const mediaType = mediaTypeOf(headers['content-type']);
  const documentedTypes = documented.mediaTypes;
  if (documentedTypes.length === 0 || mediaType === undefined) {
    return { findings };
  }
  if (!documentedTypes.includes(mediaType)) {
    const message = `the media type ${mediaType} is not documented for status ${status}`;
    const pointer = '#/header/Content-Type';
    return {
      findings: [...findings, { kind: 'response', pointer, message, expected: documentedTypes, got: mediaType }],
    };
  }
  const bodySchema = bodySchemaOf(contract.document, documented, mediaType);
  return bodySchema === undefined ? { findings, mediaType } : { findings, mediaType, bodySchema };
}

/** A whole JSON body against the schema of its media type. */
export function checkBody(contract: Contract, head: HeadCheck, status: number, body: string): Finding[] {
  if (head.bodySchema === undefined) {
    return [];
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return [
      { kind: 'response', pointer: '#/body', message: `the ${status} body is not JSON`, got: body.slice(0, 200) },
    ];
  }
  const result = contract.validator.validate(head.bodySchema, value);
  return result.valid ? [] : schemaFindings('response', '#/body', result.errors);
}
