/**
 * What the commands that run a server in the foreground share: the `--port` option and running until
 * Ctrl-C (SIGINT) or SIGTERM, then stopping cleanly.
 * @module
 */
import { InvalidArgumentError } from 'commander';

/** Parses `--port`: a TCP port from 1 to 65535 (port 0 would leave the address unknown to print). */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65_535) {
    throw new InvalidArgumentError('expected a port number from 1 to 65535');
  }
  return port;
}

export interface ForegroundServer {
  /** Resolves with the exit code, or the name of the signal that ended the server. */
  exited: Promise<number | string | null>;
  stop(): Promise<void>;
}

const stopSignals = ['SIGINT', 'SIGTERM'] as const;

/** How often a command run by npm checks that its parent is still there. */
const parentCheckMs = 250;

/**
 * The parent as it was when the command started. Read later, when the server already listens, it could
 * already be the orphan's new parent: a script that kills npx as soon as the address is printed can win
 * that race on a loaded machine, and the server would then never see its parent go.
 */
const parentAtStart = process.ppid;

/**
 * Run by npm (`npx boardkit mock`, an npm script), the command is the child of `sh -c`, which dies on
 * SIGTERM without passing it on: `kill $!` of the npx process would leave this server listening. So under
 * npm (which sets `npm_command`) a parent that goes away is a stop signal too. Outside npm the parent is
 * not watched, so `nohup boardkit serve &` outlives its shell as intended.
 */
function stopWhenOrphaned(stop: () => void): () => void {
  if (process.env['npm_command'] === undefined) {
    return () => undefined;
  }
  const orphaned = (): boolean => process.ppid !== parentAtStart;
  if (orphaned()) {
    stop();
    return () => undefined;
  }
  const timer = setInterval(() => {
    if (orphaned()) {
      stop();
    }
  }, parentCheckMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Waits until SIGINT or SIGTERM, then stops `server`; resolves `true` for a stop by signal and `false`
 * when the server exited by itself. On Ctrl-C the terminal signals the whole process group, so a child
 * server may exit from the same signal before this process handles it: that exit counts as a stop too.
 */
export function runUntilStopped(server: ForegroundServer): Promise<boolean> {
  return new Promise((done, fail) => {
    let stopping = false;
    const onSignal = (): void => {
      if (stopping) {
        return;
      }
      stopping = true;
      server.stop().then(
        () => finish(true),
        (error: unknown) => {
          release();
          fail(error instanceof Error ? error : new Error(String(error)));
        },
      );
    };
    const unwatch = stopWhenOrphaned(onSignal);
    const release = (): void => {
      unwatch();
      stopSignals.forEach((signal) => process.off(signal, onSignal));
    };
    const finish = (bySignal: boolean): void => {
      release();
      done(bySignal);
    };
    stopSignals.forEach((signal) => process.on(signal, onSignal));
    void server.exited.then(async (exit) => {
      if (!stopping) {
        stopping = true;
        await server.stop();
        finish(stopSignals.some((signal) => signal === exit));
      }
    });
  });
}
