/**
 * The JavaScript heap after a full collection, so that two readings compare like with like. The
 * collector is reached through V8's `--expose-gc`, set at run time, since vitest starts its workers.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function heapAfterCollection(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}
