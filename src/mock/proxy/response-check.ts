/**
 * The proxy's check of an answer, with the contract's own validator (src/contract/validator.ts, the Ajv
 * 2020 setup the reference server and the conformance suite use): the status is documented for the
 * operation (exactly or as a range, OAS 3.1 §4.8.16.2), the media type is one the status documents,
 * required headers are there and each documented header matches its schema, and a JSON body matches the
 * schema of its media type. Event streams are checked event by event as they pass (`stream-check.ts`).
 * @module
 */
import type { HeaderObject, MediaTypeObject, ResponseObject } from '../../contract/openapi-objects.js';
import type { OpenApiDocument } from '../../contract/load.js';
import type { OperationEntry } from '../../contract/operations.js';
import { childPointer, escapeToken, resolve } from '../../contract/pointer.js';
import type { ContractValidator } from '../../contract/validator.js';
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { Finding } from './findings.js';

export interface Contract {
  document: OpenApiDocument;
  validator: ContractValidator;
}

/** The documented response of a status, or `undefined`. */
export function documentedResponse(
  contract: Contract,
  operation: OperationEntry,
  status: number,
): { pointer: string; node: ResponseObject } | undefined {
  const responses = operation.operation.responses ?? {};
  const code = String(status);
  const key = [code, `${code[0]}XX`, 'default'].find((candidate) => candidate in responses);
  return key === undefined
    ? undefined
    : resolve<ResponseObject>(contract.document, childPointer(operation.pointer, 'responses', key));
}

/** `application/json` of `application/json; charset=utf-8`. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const media = contentType?.split(';')[0]?.trim().toLowerCase();
  return media === undefined || media === '' ? undefined : media;
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

/** Header values are text; the contract types some as numbers or booleans (OAS `simple` style). */
function coerceHeader(value: string, schema: Record<string, unknown>): unknown {
  const type = schema['type'];
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value.trim())) {
    return Number(value.trim());
  }
  return type === 'boolean' && (value === 'true' || value === 'false') ? value === 'true' : value;
}

function headerFindings(
  contract: Contract,
  documented: { pointer: string; node: ResponseObject },
  headers: Record<string, string>,
): Finding[] {
  return Object.keys(documented.node.headers ?? {}).flatMap((name): Finding[] => {
    const header = resolve<HeaderObject>(contract.document, childPointer(documented.pointer, 'headers', name));
    const value = headers[name.toLowerCase()];
    const pointer = `#/header/${escapeToken(name)}`;
    if (value === undefined) {
      return header.node.required === true
        ? [{ kind: 'response', pointer, message: `the required header ${name} is missing` }]
        : [];
    }
    if (header.node.schema === undefined) {
      return [];
    }
    const schemaPointer = childPointer(header.pointer, 'schema');
    const schema = resolve<Record<string, unknown>>(contract.document, schemaPointer).node;
    const result = contract.validator.validate(schemaPointer, coerceHeader(value, schema));
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
  const documented = documentedResponse(contract, operation, status);
  if (documented === undefined) {
    const expected = Object.keys(operation.operation.responses ?? {});
    const message = `${operation.operationId ?? operation.path} does not document status ${status}`;
    return { findings: [{ kind: 'response', pointer: '#/status', message, expected, got: status }] };
  }
  const findings = headerFindings(contract, documented, headers);
  const content = documented.node.content ?? {};
  const mediaType = mediaTypeOf(headers['content-type']);
  const documentedTypes = Object.keys(content);
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
  const media = resolve<MediaTypeObject>(contract.document, childPointer(documented.pointer, 'content', mediaType));
  return media.node.schema === undefined
    ? { findings, mediaType }
    : { findings, mediaType, bodySchema: childPointer(media.pointer, 'schema') };
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
