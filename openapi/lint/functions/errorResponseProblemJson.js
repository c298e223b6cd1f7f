// error-response-problem-json
//
// Checks, for every 4xx and 5xx response (codes `400`..`599` and the ranges `4XX`, `5XX`) of operations
// under `paths` and `webhooks`:
//   1. its content is `application/problem+json` and nothing else;
//   2. that media type has at least one named example (`examples.<name>.value`);
//   3. the `status` of every such example equals the response's code (for a range, lies in it), so at
//      least one example answers with the response's own status.
// Why: errors are RFC 9457 problem details (seed "Errors"); `status` must repeat the HTTP status code
// (RFC 9457 §3.1.2), and a mock serving a schema-generated problem body would invent a wrong one.
import { createRulesetFunction } from '@stoplight/spectral-core';

const PROBLEM_JSON = 'application/problem+json';
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The statuses a response code stands for: `[404, 404]`, or `[400, 499]` for `4XX`. */
function statusRange(code) {
  if (/^[45]\d\d$/.test(code)) return [Number(code), Number(code)];
  if (/^[45]XX$/i.test(code)) return [Number(code[0]) * 100, Number(code[0]) * 100 + 99];
  return null;
}

export default createRulesetFunction(
  { input: { type: 'object' }, options: null },
  function errorResponseProblemJson(responses, _options, context) {
    const results = [];
    for (const [code, response] of Object.entries(responses)) {
      const range = statusRange(code);
      if (range === null || !isObject(response)) continue;
      const at = [...context.path, code];
      const mediaTypes = isObject(response.content) ? Object.keys(response.content) : [];
      if (!mediaTypes.includes(PROBLEM_JSON)) {
        results.push({ message: `Error response ${code} must be served as \`${PROBLEM_JSON}\`.`, path: at });
      }
      for (const mediaType of mediaTypes.filter((type) => type !== PROBLEM_JSON)) {
        results.push({
          message: `Error response ${code} serves \`${mediaType}\`; error responses are \`${PROBLEM_JSON}\` only.`,
          path: [...at, 'content', mediaType],
        });
      }
      const media = isObject(response.content) ? response.content[PROBLEM_JSON] : undefined;
      if (!isObject(media)) continue;
      const examples = isObject(media.examples) ? Object.entries(media.examples) : [];
      if (examples.length === 0) {
        results.push({
          message: `Error response ${code} has no named example; give it one whose \`status\` is ${code}.`,
          path: [...at, 'content', PROBLEM_JSON],
        });
      }
      for (const [name, example] of examples) {
        const status = isObject(example) && isObject(example.value) ? example.value.status : undefined;
        if (typeof status === 'number' && status >= range[0] && status <= range[1]) continue;
        results.push({
          message: `Example \`${name}\` of error response ${code} has status ${JSON.stringify(status) ?? 'missing'}; it must be ${code}.`,
          path: [...at, 'content', PROBLEM_JSON, 'examples', name],
        });
      }
    }
    return results;
  },
);
