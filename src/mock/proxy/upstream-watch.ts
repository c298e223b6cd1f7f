/**
 * When the upstream has ended, so that a proxy run in CI stops with its report once the implementation
 * under test has been stopped: the upstream has ended when, after it had answered at least once, it
 * refused `after` consecutive attempts to reach it. Attempts are the relayed requests and a TCP probe of
 * its address every `intervalMs` (so an idle proxy notices too); any success starts the count again, so
 * an upstream that restarts within the window is waited for.
 * @module
 */
import { canConnect } from '../prism.js';

export interface UpstreamWatch {
  /** Counts a relayed request's attempt. */
  attempt(answered: boolean): void;
  /** Resolves once the upstream has ended; never when the watch is off. */
  gone: Promise<void>;
  stop(): void;
}

export function watchUpstream(upstream: string, after: number, intervalMs = 1000): UpstreamWatch {
  let failures = 0;
  let seen = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let done = (): void => undefined;
  const gone = new Promise<void>((resolve) => (done = resolve));
  const attempt = (answered: boolean): void => {
    seen ||= answered;
    failures = answered ? 0 : failures + 1;
    if (seen && after > 0 && failures >= after) {
      stop();
      done();
    }
  };
  function stop(): void {
    stopped = true;
    clearTimeout(timer);
  }
  if (after > 0) {
    const url = new URL(upstream);
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const probe = (): void => {
      timer = setTimeout(() => {
        void canConnect(host, port).then((answered) => {
          if (!stopped) {
            attempt(answered);
          }
          if (!stopped) {
            probe();
          }
        });
      }, intervalMs);
      timer.unref();
    };
    probe();
  }
  return { attempt, gone, stop };
}
