// write-accepts-idempotency-key
//
// Checks, for every path item: each write operation (POST, PATCH, DELETE by default) accepts the
// idempotency header (`Idempotency-Key`), declared on the operation or on the path item. Parameters arrive
// resolved, so a `$ref` to the shared parameter counts. Header names compare case-insensitively (RFC 9110).
// Why: every write is safe to retry with a key (seed "Limits": 24-hour idempotency window;
// draft-ietf-httpapi-idempotency-key-header).
import { createRulesetFunction } from '@stoplight/spectral-core';

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const parametersOf = (node) => (Array.isArray(node?.parameters) ? node.parameters.filter(isObject) : []);

export default createRulesetFunction(
  {
    input: { type: 'object' },
    options: {
      type: 'object',
      properties: {
        header: { type: 'string', minLength: 1 },
        methods: {
          type: 'array',
          minItems: 1,
          items: { enum: ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] },
        },
      },
      required: ['header', 'methods'],
      additionalProperties: false,
    },
  },
  function writeAcceptsIdempotencyKey(pathItem, { header, methods }, context) {
    const results = [];
    const wanted = header.toLowerCase();
    const accepts = (parameter) =>
      parameter.in === 'header' && typeof parameter.name === 'string' && parameter.name.toLowerCase() === wanted;
    const onPathItem = parametersOf(pathItem).some(accepts);
    const route = String(context.path[context.path.length - 1]);
    for (const method of methods) {
      const operation = pathItem[method];
      if (!isObject(operation) || onPathItem || parametersOf(operation).some(accepts)) continue;
      results.push({
        message: `${method.toUpperCase()} ${route} does not accept the \`${header}\` header; every write takes it (add the shared ${header} parameter).`,
        path: [...context.path, method],
      });
    }
    return results;
  },
);
