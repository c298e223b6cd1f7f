// no-default-response
//
// Checks, for every operation's responses (paths and webhooks): there is no `default` response.
// The finding points at the `responses` object: a `default` that is a `$ref` would otherwise be reported
// in the referenced response's file, which is not where it has to be removed.
// Why: every status an operation can answer is listed with its own problem type (seed "Errors"); a
// catch-all response hides undocumented statuses from clients, the mock and the conformance suite.
import { createRulesetFunction } from '@stoplight/spectral-core';

export default createRulesetFunction(
  { input: { type: 'object' }, options: null },
  function noDefaultResponse(responses, _options, context) {
    if (!Object.prototype.hasOwnProperty.call(responses, 'default')) return [];
    return [
      {
        message: 'The responses have a `default`, which is not allowed; list each status code the operation answers.',
        path: context.path,
      },
    ];
  },
);
