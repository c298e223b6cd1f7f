// oas3-schema (tuned)
//
// Checks the whole document against the OpenAPI 3.1 JSON Schema, exactly like `spectral:oas`'s own
// `oas3-schema` (this function delegates to it), but on the *resolved* document instead of the root file.
// Why: the stock rule validates only the unresolved root file, and the OpenAPI 3.1 schema Spectral ships
// (the 2022-10-07 edition) has `paths` use `path-item` instead of `path-item-or-reference`, so each
// `/path: {$ref: paths/....yaml}` of a split contract is reported as "must not have unevaluated
// properties" although OpenAPI 3.1 §4.8.9 allows `$ref` in a Path Item (fixed upstream in
// OAI/OpenAPI-Specification#3355; Spectral issue stoplightio/spectral#2655). On the resolved document the
// path items are the referenced files' content, and every file of the contract gets validated, not only
// the root.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';

const stock = oas.rules['oas3-schema'].then.function;

export default createRulesetFunction(
  { input: { type: 'object' }, options: null },
  function oas3Schema(document, _options, context) {
    return stock(document, null, context);
  },
);
