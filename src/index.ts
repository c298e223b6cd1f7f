/**
 * boardkit's library entry point: the typed client, the contract loader and validator, the types
 * generated from the contract, the webhook signature functions a receiver needs, and the kit inside a test
 * suite: `startServer`, `startMock`, `runConformance` and `checkReceiver` (loaded on first call).
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
export {
  createWebhookSecret,
  replayToleranceSeconds,
  signDelivery,
  signLegacyDelivery,
  verifyDelivery,
  verifyLegacyDelivery,
  type LegacyVerifyInput,
  type RawBody,
  type SignInput,
  type VerifyInput,
  type VerifyResult,
} from './webhooks/signing.js';
export { deliveryHeaders, legacyDeliveryHeaders, type HeaderSource } from './webhooks/headers.js';
export {
  checkReceiver,
  runConformance,
  serverControl,
  startMock,
  startServer,
  type CompletionMemo,
  type ConformanceRunOptions,
  type ControlledSessionState,
  type FaultOptions,
  type JournalEntry,
  type JournalFilter,
  type QueuedFault,
  type ReceiverCheckOptions,
  type ReportOptions,
  type ResetOptions,
  type RunReport,
  type SeedData,
  type ServerControl,
  type SessionStateOptions,
  type TestMock,
  type TestMockOptions,
  type TestServer,
  type TestServerOptions,
} from './testing/index.js';
