/**
 * The words of the mock's refusals, from Prism's violations and the request's own headers: pointers
 * prefixed with the request location and escaped as RFC 6901 says, Prism's subject dropped from each
 * detail, and an `Authorization` header described as it was sent.
 */
import { describe, expect, test } from 'vitest';
import { instanceOf, invalidRequest, unauthorized, violationOf } from '../../src/mock/refusals.js';

describe('violations as problem errors', () => {
  test.each([
    [
      ['request', 'body', 'synths'],
      'Request body property synths must NOT have fewer than 2 items',
      '#/body/synths',
      'must NOT have fewer than 2 items',
    ],
    [['request', 'query', 'limit'], 'Request query parameter limit must be >= 1', '#/query/limit', 'must be >= 1'],
    [
      ['request', 'path', 'id'],
      'Request path parameter id must match format "uuid"',
      '#/path/id',
      'must match format "uuid"',
    ],
    [
      ['request', 'header', 'idempotency-key'],
      'Request header parameter idempotency-key must NOT have more than 255 characters',
      '#/header/idempotency-key',
      'must NOT have more than 255 characters',
    ],
    [
      ['request', 'body', 'a/b', 'c~d'],
      'Request body property c~d must be string',
      '#/body/a~1b/c~0d',
      'must be string',
    ],
    [['request'], 'Body parameter is required', '#/body', 'Body parameter is required'],
  ])('%j', (location, message, pointer, detail) => {
    expect(violationOf({ location, severity: 'Error', message })).toEqual({ pointer, detail });
  });

  test('the detail leads with the first violations and counts the rest; warnings are left out', () => {
    const many = Array.from({ length: 7 }, (_, index) => ({
      location: ['request', 'body', `m${index}`],
      severity: 'Error',
      message: 'must be string',
    }));
    const refusal = invalidRequest([
      ...many,
      { location: ['request', 'body', 'x'], severity: 'Warning', message: 'is deprecated' },
    ]);
    expect(refusal.errors.map((error) => error.pointer)).toEqual(many.map((_, index) => `#/body/m${index}`));
    expect(refusal.detail).toBe(
      'The request does not match the contract: #/body/m0 must be string; #/body/m1 must be string; #/body/m2 must be string; ' +
        '#/body/m3 must be string; #/body/m4 must be string (and 2 more).',
    );
  });
});

describe('the Authorization header as sent', () => {
  test.each([
    [undefined, 'The Authorization header is missing; send Authorization: Bearer <API key>.'],
    ['Basic c2tfdGVzdDp4', 'The Authorization header uses the scheme "Basic"; the API takes Bearer <API key>.'],
    ['bearer sk_test_1', 'The Authorization header was not accepted.'],
    ['sk_test_4eC39HqLyjWDarjtT1zdp7dc', 'The Authorization header has no scheme; the API takes Bearer <API key>.'],
    [
      'sk_test_4eC39HqLyjWDarjtT1zdp7dc sk_test_4eC39HqLyjWDarjtT1zdp7dc',
      'The Authorization header uses the scheme "…"; the API takes Bearer <API key>.',
    ],
    ['Bearer', 'The Authorization header has no token after Bearer.'],
  ])('%s', (header, detail) => {
    expect(unauthorized(header).detail).toBe(detail);
  });
});

describe('the instance', () => {
  test.each([
    ['/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E', '/v1/sessions/ses_01JD8M4ZPQ6T3W9XK2RB7CNV5E'],
    ['/v1/sessions/%E0%A4%A', '/v1/sessions/%E0%A4%25A'],
    ['/v1/sessions/a"b|c', '/v1/sessions/a%22b%7Cc'],
    ['/v1/sessions/ü😀', '/v1/sessions/%C3%BC%F0%9F%98%80'],
  ])('%s is the URI reference %s', (path, instance) => {
    expect(instanceOf(path)).toBe(instance);
  });
});
