/**
 * JSON Schema 2020-12 validation against the contract (the root declares that `jsonSchemaDialect`).
 *
 * The whole document is added to one Ajv instance, so a schema anywhere in it is addressed by its
 * pointer and its `#/components/...` references resolve as written.
 * @module
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { bodySchemaOf, documentedResponse } from './documented-response.js';
import type { OpenApiDocument } from './load.js';
import { findOperation, type OperationEntry } from './operations.js';
import { valueAt } from './pointer.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule.default;

/** The id the document is registered under; validator keys are `openapi.json#/<pointer>`. */
const documentId = 'openapi.json';

export interface ValidationResult {
  valid: boolean;
  errors: ErrorObject[];
}

export interface ContractValidator {
  /** The compiled validator of the schema at `pointer` (e.g. `#/components/schemas/Session`). */
  schemaAt(pointer: string): ValidateFunction;
  /** Validates `value` against the schema at `pointer`. */
  validate(pointer: string, value: unknown): ValidationResult;
  /**
   * The validator of a response body, or `undefined` when that response declares no schema for the media
   * type. `operation` is an operationId or an entry of `listOperations`. The status is looked up exactly,
   * then as a range (`4XX`), then as `default` (OAS 3.1 §4.8.16.2; `documented-response.ts`).
   */
  responseBody(
    operation: string | OperationEntry,
    status: number | string,
    mediaType?: string,
  ): ValidateFunction | undefined;
}

export interface ContractValidatorOptions {
  /**
   * Check the document's schemas against the JSON Schema meta-schema when it is added (the default).
   * Compiling the meta-schema is the slowest part of start-up; a server loading the bundled contract,
   * which the tests and `boardkit lint` already check, may skip it.
   */
  validateSchema?: boolean;
}

export function createContractValidator(
  document: OpenApiDocument,
  options: ContractValidatorOptions = {},
): ContractValidator {
  const ajv = new Ajv2020({
    validateSchema: options.validateSchema ?? true,
    // The document root is not a schema (`openapi`, `info`, …) and schemas carry `x-` annotations.
    strictSchema: false,
    // `type: [string, 'null']` is how the contract spells nullable (openapi/README.md).
    allowUnionTypes: true,
    // Every problem at once: a failing example should explain itself in one run.
    allErrors: true,
  });
  addFormats(ajv);
  ajv.addSchema(document, documentId);
  const compiled = new Map<string, ValidateFunction>();

  function schemaAt(pointer: string): ValidateFunction {
    let validateFn = compiled.get(pointer);
    if (validateFn === undefined) {
      if (valueAt(document, pointer) === undefined) {
        throw new Error(`No schema at ${pointer}`);
      }
      validateFn = ajv.getSchema(`${documentId}${pointer}`);
      if (validateFn === undefined) {
        throw new Error(`Ajv could not resolve ${pointer}`);
      }
      compiled.set(pointer, validateFn);
    }
    return validateFn;
  }

  function validate(pointer: string, value: unknown): ValidationResult {
    const validateFn = schemaAt(pointer);
    const valid = validateFn(value);
    return { valid, errors: valid ? [] : [...(validateFn.errors ?? [])] };
  }

  function responseBody(
    operation: string | OperationEntry,
    status: number | string,
    mediaType = 'application/json',
  ): ValidateFunction | undefined {
    const entry = typeof operation === 'string' ? findOperation(document, operation) : operation;
    if (entry === undefined) {
      throw new Error(
        `No operation ${typeof operation === 'string' ? operation : `${operation.method.toUpperCase()} ${operation.path}`} in the contract`,
      );
    }
    const response = documentedResponse(document, entry.pointer, Number(status));
    const schema = response === undefined ? undefined : bodySchemaOf(document, response, mediaType);
    return schema === undefined ? undefined : schemaAt(schema);
  }

  return { schemaAt, validate, responseBody };
}
