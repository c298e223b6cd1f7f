// collection-get-paginated
//
// Checks, for every GET operation under `paths`:
//   1. a collection, i.e. a GET whose `200` `application/json` schema has an array property `items`,
//      takes the query parameters `limit` and `cursor` (on the operation or its path item), and its
//      schema lists `items` and `next_cursor` in `required`;
//   2. a GET whose operationId starts with `list` (`listSessions`) is such a collection.
// Properties and `required` are read from the schema and from the members of its `allOf`.
// Why: lists use cursor pagination with `limit` and `cursor`, and answer `{items, next_cursor}` where
// `next_cursor` is null on the last page (seed "Endpoints", openapi/README.md "Lists").
import { createRulesetFunction } from '@stoplight/spectral-core';

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const parametersOf = (node) => (Array.isArray(node?.parameters) ? node.parameters.filter(isObject) : []);

/** The schema and its `allOf` members: where an object's properties and `required` are declared. */
const layers = (schema) => [schema, ...(Array.isArray(schema.allOf) ? schema.allOf.filter(isObject) : [])];

function isArraySchema(schema) {
  if (!isObject(schema)) return false;
  return schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'));
}

export default createRulesetFunction(
  {
    input: { type: 'object' },
    options: {
      type: 'object',
      properties: {
        itemsProperty: { type: 'string' },
        cursorProperty: { type: 'string' },
        queryParameters: { type: 'array', items: { type: 'string' } },
        listPrefix: { type: 'string' },
      },
      required: ['itemsProperty', 'cursorProperty', 'queryParameters', 'listPrefix'],
      additionalProperties: false,
    },
  },
  function collectionGetPaginated(pathItem, options, context) {
    const operation = pathItem.get;
    if (!isObject(operation)) return [];
    const { itemsProperty, cursorProperty, queryParameters, listPrefix } = options;
    const at = [...context.path, 'get'];
    const route = String(context.path[context.path.length - 1]);
    const schemaAt = [...at, 'responses', '200', 'content', 'application/json', 'schema'];
    const schema = operation.responses?.['200']?.content?.['application/json']?.schema;
    const isCollection =
      isObject(schema) && layers(schema).some((layer) => isArraySchema(layer.properties?.[itemsProperty]));
    const operationId = typeof operation.operationId === 'string' ? operation.operationId : '';
    const results = [];

    if (!isCollection) {
      // `listen...` is not a list: the prefix must end a word (`list`, `listSessions`, `list_sessions`).
      if (new RegExp(`^${listPrefix}(?![a-z])`).test(operationId)) {
        results.push({
          message: `GET ${route} (${operationId}) is named as a list, but its 200 application/json schema has no array property \`${itemsProperty}\`; a list answers a page {${itemsProperty}, ${cursorProperty}}.`,
          path: at,
        });
      }
      return results;
    }

    const query = [...parametersOf(pathItem), ...parametersOf(operation)].filter((p) => p.in === 'query');
    for (const name of queryParameters) {
      if (query.some((parameter) => parameter.name === name)) continue;
      results.push({
        message: `GET ${route} returns a collection but does not take the query parameter \`${name}\` (cursor pagination).`,
        path: at,
      });
    }
    const required = new Set(layers(schema).flatMap((layer) => (Array.isArray(layer.required) ? layer.required : [])));
    for (const name of [itemsProperty, cursorProperty]) {
      if (required.has(name)) continue;
      results.push({
        message: `The page schema of GET ${route} must require \`${name}\` (a page is {${itemsProperty}, ${cursorProperty}}).`,
        path: schemaAt,
      });
    }
    return results;
  },
);
