import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // The artefact and CLI tests spawn Redocly and openapi-typescript over the whole contract.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
