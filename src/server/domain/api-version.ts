/**
 * Date versions (seed "Versioning" 4): every response carries `X-Service-API-Version`, the version the
 * request was processed as; a request pins one by sending the same header. The versions come from the
 * contract's `x-api-versions`.
 * @module
 */
import type { ApiVersions } from '../ports/services.js';
import { apiVersionCatalogue } from '../../contract/extensions.js';
import type { OpenApiDocument } from '../../contract/load.js';
import { ProblemError } from '../core/problems.js';

export const apiVersionHeader = 'X-Service-API-Version';

export function apiVersions(document: OpenApiDocument): ApiVersions {
  const catalogue = apiVersionCatalogue(document);
  const { supported } = catalogue;
  return {
    current: catalogue.current,
    supported,
    negotiate(pin, fallback = catalogue.current) {
      if (pin === undefined) {
        return fallback;
      }
      const value = Array.isArray(pin) ? undefined : pin.trim();
      if (value === undefined || !supported.includes(value)) {
        throw new ProblemError(
          400,
          `Unknown API version ${JSON.stringify(pin)}; the supported versions are ${supported.join(', ')}.`,
          { errors: [{ pointer: `#/header/${apiVersionHeader}`, detail: `must be one of ${supported.join(', ')}` }] },
        );
      }
      return value;
    },
  };
}
