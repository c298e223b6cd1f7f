// The quick loop (`npm run test:quick`): the unit tests of the kit's modules, which start no server,
// child process or browser, in well under a minute. `npm test` runs everything, these included.
import { defineConfig } from 'vitest/config';
import base, { testProjects } from './vitest.config.js';

export default defineConfig({
  test: {
    ...base.test,
    projects: testProjects([
      'test/architecture.test.ts',
      'test/markup.test.ts',
      'test/board/**/*.test.ts',
      'test/bundle/**/*.test.ts',
      'test/contract/{catalogues,examples,extensions,links,load,operations,pointer,published-samples,seed-coverage,sse,validator,variants}.test.ts',
      'test/conformance/{coverage,harness,registry,remedies,reporters,requirement-list}.test.ts',
      'test/docs/{breaking,pages}.test.ts',
      'test/fuzz/{locate,report}.test.ts',
      'test/lint/**/*.test.ts',
      'test/mock/{catalog,document,refusal-text,routes}.test.ts',
      'test/properties/**/*.test.ts',
      'test/webhooks/**/*.test.ts',
    ]),
  },
});
