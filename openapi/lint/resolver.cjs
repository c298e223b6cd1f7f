// The `$ref` resolver Spectral lints the contract with (`spectral lint --resolver`): Spectral's own
// file-and-HTTP resolver, with one fix for split documents.
//
// The defect (stoplightio/spectral#2640, "Lots of $ref to other files leads to random errors due to
// unprocessed $ref targets"): @stoplight/json-ref-resolver keeps one resolver per referenced file and, on
// every lookup of that file, appends the referring file to the resolver's `uriStack`. In a contract where
// one file is referenced from many places (a header, the problem schema) the stack passes 100 entries, the
// resolver takes that for a circular chain ("max uri depth") and stops resolving the file's own `$ref`s.
// Which ones stay unresolved depends on the order files finish loading, so rules see a different document
// on every run, without any error. The fix keeps each stack free of duplicates: the stack still holds every
// file the referenced one is reached from (so real cycles are still detected), but no longer grows with the
// number of references.
'use strict';
const { createRequire } = require('node:module');

// The resolver packages Spectral itself depends on, and the copy of json-ref-resolver that they use.
const fromCore = createRequire(require.resolve('@stoplight/spectral-core'));
const { createHttpAndFileResolver } = fromCore('@stoplight/spectral-ref-resolver');
const fromResolver = createRequire(fromCore.resolve('@stoplight/spectral-ref-resolver'));
const { ResolveRunner } = fromResolver('@stoplight/json-ref-resolver/runner');

if (!Object.prototype.hasOwnProperty.call(ResolveRunner.prototype, 'uriStack')) {
  Object.defineProperty(ResolveRunner.prototype, 'uriStack', {
    configurable: true,
    get() {
      return this._distinctUriStack;
    },
    set(stack) {
      this._distinctUriStack = [...new Set(stack)];
    },
  });
}

// Fail loudly rather than lint a half-resolved document if a new json-ref-resolver changed its internals.
const probe = new ResolveRunner({}, undefined, { uriStack: ['a', 'a'] });
if (probe.uriStack.length !== 1 || Object.prototype.hasOwnProperty.call(probe, 'uriStack')) {
  throw new Error(
    '@stoplight/json-ref-resolver changed: the uriStack fix of openapi/lint/resolver.cjs no longer applies',
  );
}

module.exports = createHttpAndFileResolver();
