/**
 * `startMock`: the mock of the API inside a test suite, in the calling process on a free loopback port.
 * It answers with the contract's named examples (or generated bodies with `dynamic`), as `boardkit mock`.
 * @module
 */

export interface TestMockOptions {
  /** `0` (the default) picks a free port. */
  port?: number;
  /** The address to bind; loopback by default. */
  host?: string;
  /** Generate bodies from the schemas instead of serving the named examples. */
  dynamic?: boolean;
}

export interface TestMock {
  /** The mock's `{base_url}`. */
  readonly baseUrl: string;
  /** Stops the mock and frees its port; safe to call twice. */
  close(): Promise<void>;
}

export async function startMock(options: TestMockOptions = {}): Promise<TestMock> {
  // Loaded on use: importing `boardkit` must not load Prism.
  const { startMock: startApiMock } = await import('../mock/mock.js');
  const mock = await startApiMock({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    dynamic: options.dynamic ?? false,
    output: 'pipe',
  });
  let closing: Promise<void> | undefined;
  return { baseUrl: mock.baseUrl, close: () => (closing ??= mock.stop()) };
}
