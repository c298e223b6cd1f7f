/**
 * Faults in date versioning (seed "Versioning"): the version header goes missing, a pin is ignored, an
 * unknown version is taken, the health probe reports another version.
 * @module
 */
import { editJson } from './exchange-edits.js';
import type { Fault } from './types.js';

export const versioningFaults: Fault[] = [
  {
    name: 'omit-version-header',
    breaks: ['VER-001'],
    response: (_, response) => void delete response.headers['x-service-api-version'],
  },
  {
    name: 'version-ignore-pin',
    breaks: ['VER-002', 'VER-004'],
    request: (request) => void delete request.headers['x-service-api-version'],
  },
  {
    name: 'version-accept-unknown',
    breaks: ['VER-003'],
    request(request) {
      if (!['2026-10-01', '2026-04-01', undefined].includes(request.headers['x-service-api-version'])) {
        delete request.headers['x-service-api-version'];
      }
    },
  },
  {
    name: 'health-wrong-version',
    breaks: ['VER-005'],
    response: (request, response) =>
      request.url.pathname === '/v1/health'
        ? editJson(response, (body) => (body['api_version'] = '2020-01-01'))
        : undefined,
  },
];
