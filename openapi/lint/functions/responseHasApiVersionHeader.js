// response-has-api-version-header
//
// Checks, for every response of every operation under `paths` (2xx and errors alike): it declares the
// version header (`X-Service-API-Version`) in `headers`. Header names compare case-insensitively.
// Webhooks are not checked: their responses come from the receiver, not from the service.
// Why: every response carries the date version the request was processed as (seed "Versioning" 4).
import { createRulesetFunction } from '@stoplight/spectral-core';

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

export default createRulesetFunction(
  {
    input: { type: 'object' },
    options: {
      type: 'object',
      properties: { header: { type: 'string', minLength: 1 } },
      required: ['header'],
      additionalProperties: false,
    },
  },
  function responseHasApiVersionHeader(responses, { header }, context) {
    const results = [];
    const wanted = header.toLowerCase();
    for (const [code, response] of Object.entries(responses)) {
      if (!isObject(response)) continue;
      const headers = isObject(response.headers) ? Object.keys(response.headers) : [];
      if (headers.some((name) => name.toLowerCase() === wanted)) continue;
      results.push({
        message: `Response ${code} does not declare the \`${header}\` header; every response carries it.`,
        path: [...context.path, code],
      });
    }
    return results;
  },
);
