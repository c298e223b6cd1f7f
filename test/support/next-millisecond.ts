/**
 * Resolves once the wall clock has moved past the millisecond it was called in: the store notices another
 * process's commits at most once per millisecond (src/server/store/data-version.ts), so a test that writes
 * from another connection waits for the clock, never for a fixed time.
 */
export async function nextMillisecond(): Promise<void> {
  const start = Date.now();
  while (Date.now() === start) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}
