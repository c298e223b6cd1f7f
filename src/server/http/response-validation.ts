/**
 * Response validation against the contract (on in every test): the status must be documented for the
 * operation, the body must match the response's schema for its media type, and the declared headers
 * must be present when required and match their schemas. A server event is checked the same way, its
 * `data` against the event's `contentSchema`.
 * @module
 */
import {
  documentedHeaders,
  documentedResponse,
  headerValue,
  mediaTypeOf,
  type DocumentedResponse,
} from '../../contract/documented-response.js';
import { eventDataSchema } from '../../contract/event-schemas.js';
import type { OpenApiDocument } from '../../contract/load.js';
import { childPointer } from '../../contract/pointer.js';
import type { ContractValidator } from '../../contract/validator.js';
import { violationsOf } from '../core/problems.js';
import type { Route } from './routes.js';

export interface OutgoingResponse {
  status: number;
  contentType: string | undefined;
  headers: Record<string, string | number | string[] | undefined>;
  /** The serialised body; `undefined` for no body or a stream. */
  payload: string | undefined;
}

export interface ResponseValidator {
  check(route: Route | undefined, response: OutgoingResponse): string[];
  checkStreamEvent(route: Route, event: Record<string, unknown>): string[];
}

function sentHeader(headers: OutgoingResponse['headers'], name: string): string | undefined {
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase());
  const value = entry?.[1];
  return value === undefined ? undefined : String(Array.isArray(value) ? value[0] : value);
}

export function responseValidator(document: OpenApiDocument, validator: ContractValidator): ResponseValidator {
  function describe(prefix: string, pointer: string, value: unknown): string[] {
    const result = validator.validate(pointer, value);
    return violationsOf(result.errors, prefix).map((violation) => `${violation.pointer} ${violation.detail}`);
  }

  function checkHeaders(response: DocumentedResponse, headers: OutgoingResponse['headers']): string[] {
    const problems: string[] = [];
    for (const header of documentedHeaders(document, response)) {
      const value = sentHeader(headers, header.name);
      if (value === undefined) {
        if (header.required) {
          problems.push(`header ${header.name} is required`);
        }
      } else if (header.schema !== undefined) {
        problems.push(...describe(`#/header/${header.name}`, header.schema, headerValue(header, value)));
      }
    }
    return problems;
  }

  function check(route: Route | undefined, response: OutgoingResponse): string[] {
    const mediaType = mediaTypeOf(response.contentType);
    if (route === undefined) {
      // An unknown route or method: the answer must still be a problem of the catalogue.
      if (mediaType !== 'application/problem+json' || response.payload === undefined) {
        return ['an answer outside the contract must be application/problem+json'];
      }
      return describe('#/body', '#/components/schemas/Problem', JSON.parse(response.payload));
    }
    const documented = documentedResponse(document, route.pointer, response.status);
    if (documented === undefined) {
      return [`status ${response.status} is not documented for ${route.operationId}`];
    }
    const problems = checkHeaders(documented, response.headers);
    if (documented.mediaTypes.length === 0) {
      if (response.payload !== undefined && response.payload !== '') {
        problems.push(`status ${response.status} of ${route.operationId} has no body`);
      }
      return problems;
    }
    if (mediaType === undefined || !documented.mediaTypes.includes(mediaType)) {
      return [...problems, `media type ${String(mediaType)} is not documented for ${response.status}`];
    }
    if (mediaType === 'text/event-stream') {
      return problems;
    }
    const bodyValidator = validator.responseBody(route.operationId, response.status, mediaType);
    if (bodyValidator !== undefined) {
      let body: unknown;
      try {
        body = JSON.parse(response.payload ?? '');
      } catch {
        return [...problems, 'the body is not JSON'];
      }
      if (!bodyValidator(body)) {
        problems.push(...violationsOf(bodyValidator.errors ?? [], '#/body').map((v) => `${v.pointer} ${v.detail}`));
      }
    }
    return problems;
  }

  /** The `contentSchema` of each event of each stream schema, looked up once. */
  const dataSchemas = new Map<string, string | undefined>();
  function dataSchemaOf(streamSchema: string, event: string): string | undefined {
    const key = `${streamSchema} ${event}`;
    if (!dataSchemas.has(key)) {
      dataSchemas.set(key, eventDataSchema(document, streamSchema, event));
    }
    return dataSchemas.get(key);
  }

  function checkStreamEvent(route: Route, event: Record<string, unknown>): string[] {
    const streamSchema = childPointer(route.pointer, 'responses', '200', 'content', 'text/event-stream', 'schema');
    const problems = describe('#/event', streamSchema, event);
    const dataSchema = typeof event['event'] === 'string' ? dataSchemaOf(streamSchema, event['event']) : undefined;
    if (dataSchema !== undefined && typeof event['data'] === 'string') {
      problems.push(...describe('#/event/data', dataSchema, JSON.parse(event['data'])));
    }
    return problems;
  }

  return { check, checkStreamEvent };
}
