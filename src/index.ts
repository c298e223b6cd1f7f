/**
 * boardkit's library entry point: the typed client, the contract loader and validator, and the types
 * generated from the contract.
 * @module
 */
export { createBoardClient, type BoardClient, type BoardClientOptions } from './client.js';
export { loadContract, parseContract, type OpenApiDocument } from './contract/load.js';
export { createContractValidator, type ContractValidator, type ValidationResult } from './contract/validator.js';
export {
  findOperation,
  listOperations,
  httpMethods,
  type HttpMethod,
  type OperationEntry,
} from './contract/operations.js';
export type { paths, components, operations, webhooks } from './generated/openapi.js';
