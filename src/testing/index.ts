/**
 * The kit inside a test suite (docs/testing.md): the reference server and the mock started in-process,
 * and the conformance and receiver suites run from code. Each loads its part on first call, so that
 * importing `boardkit` stays light.
 * @module
 */
export { startServer, type SeedData, type TestServer, type TestServerOptions } from './server.js';
export { serverControl } from './controls.js';
export type {
  CompletionMemo,
  ControlledSessionState,
  FaultOptions,
  JournalEntry,
  JournalFilter,
  QueuedFault,
  ResetOptions,
  ServerControl,
  SessionStateOptions,
} from './controls.js';
export { startMock, type TestMock, type TestMockOptions } from './mock.js';
export { runConformance, type ConformanceRunOptions } from './conformance.js';
export { checkReceiver, type ReceiverCheckOptions } from './receiver.js';
export type { ReportOptions, RunReport } from './reports.js';
