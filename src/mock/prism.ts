/**
 * The pinned `@stoplight/prism-cli` (a dependency of this package, never a global install): where its bin
 * file is, from which the mock and the proxy resolve the very `prism-http` it runs, and its version; and
 * the loopback helpers the mock and the proxy share (a free port, whether an address answers).
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';

/** Where Prism's output goes: the caller's terminal, or a buffer kept for error messages and tests. */
export type PrismOutput = 'inherit' | 'pipe';

/** The JavaScript file of the `prism` bin of the installed `@stoplight/prism-cli`. */
export function prismEntry(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@stoplight/prism-cli/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin['prism'];
  if (bin === undefined) {
    throw new Error('@stoplight/prism-cli declares no `prism` bin');
  }
  return join(dirname(manifestPath), bin);
}

/** The version of the installed Prism (package.json pins it exactly). */
export function prismVersion(): string {
  const require = createRequire(import.meta.url);
  const manifest = JSON.parse(readFileSync(require.resolve('@stoplight/prism-cli/package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** `http://host:port`, with an IPv6 host in brackets (RFC 3986 §3.2.2). */
export function baseUrlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** A port that was free on `host` a moment ago (the OS picks it for a listener on port 0). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** Whether `host:port` accepts a TCP connection now. */
export function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}
