/**
 * The proxy's check of a request: Prism's own input validation (the `validateInput` of the pinned
 * `prism-http`, the code `prism proxy` and the mock run) on the one operation the route table matched,
 * its violations written as the mock's problems write them (`refusals.ts`: `#/body/synths`,
 * `#/query/limit`). A path or method the contract does not have is a request violation too.
 * @module
 */
import { createRequire } from 'node:module';
import type { EngineRequest, OperationIndex } from '../engine.js';
import { prismEntry } from '../prism.js';
import { violationOf } from '../refusals.js';
import type { Route } from '../routes.js';
import type { Finding } from './findings.js';

interface Diagnostic {
  path?: string[];
  severity: number;
  code?: string | number;
  message: string;
}

type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };

// Resolved from the CLI package the kit pins, as engine.ts resolves prism-http.
const prismHttpEntry = createRequire(prismEntry()).resolve('@stoplight/prism-http');
const validator = createRequire(prismHttpEntry)('./validator') as {
  validateInput(input: { resource: unknown; element: unknown }): Either<Diagnostic[], unknown>;
};

/** Prism's `DiagnosticSeverity.Error`; warnings and hints are not violations. */
const errorSeverity = 0;

export function checkRequest(route: Route, operations: OperationIndex, request: EngineRequest): Finding[] {
  if (route.kind === 'not-found') {
    return [{ kind: 'request', pointer: '#/path', message: `${request.path} is not a path of the contract` }];
  }
  if (route.kind === 'method-not-allowed') {
    return [
      {
        kind: 'request',
        pointer: '#/method',
        message: `${request.path} offers ${route.allow.join(', ')}, not ${request.method}`,
        expected: route.allow,
        got: request.method,
      },
    ];
  }
  const result = validator.validateInput({
    resource: operations.get(route.key),
    element: {
      method: request.method.toLowerCase(),
      url: { path: request.path, query: request.query },
      headers: request.headers,
      body: request.body,
    },
  });
  if (result._tag === 'Right') {
    return [];
  }
  // Prism reports a member once per `oneOf` branch it tried: each place and message is listed once.
  const findings = new Map<string, Finding>();
  for (const diagnostic of result.left.filter((one) => one.severity === errorSeverity)) {
    const { pointer, detail } = violationOf({
      location: ['request', ...(diagnostic.path ?? [])],
      severity: 'Error',
      message: diagnostic.message,
    });
    findings.set(`${pointer} ${detail}`, { kind: 'request', pointer, message: detail });
  }
  return [...findings.values()];
}
