import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // The artefact and CLI tests spawn Redocly and openapi-typescript over the whole contract.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most test files wait on child processes and loopback sockets (npm install, the suite against a
    // server), not on the CPU: two files at a time even on a two-core machine, where the default is one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
