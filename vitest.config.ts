import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * The test files that replace a module with `vi.mock`. A mock applies to the module graph the file
 * loads, so these run isolated; every other file shares its worker's loaded modules with the files
 * before it, which saves loading the kit's modules again for each of them (a third of the suite's CPU
 * time on two cores went there).
 */
function testFiles(): { mocking: string[]; others: string[] } {
  const files = readdirSync('test', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => join('test', file).replaceAll('\\', '/'));
  const mocks = (file: string): boolean => readFileSync(file, 'utf8').includes('vi.mock(');
  return { mocking: files.filter(mocks), others: files.filter((file) => !mocks(file)) };
}

/** The files `include` selects as two projects: those that mock a module isolated, the others not. */
export function testProjects(include: string[]): TestProjectInlineConfiguration[] {
  const { mocking, others } = testFiles();
  return [
    { extends: true, test: { name: 'shared', include, exclude: mocking, isolate: false } },
    { extends: true, test: { name: 'isolated', include, exclude: others } },
  ];
}

export default defineConfig({
  test: {
    environment: 'node',
    projects: testProjects(['test/**/*.test.ts']),
    // The artefact and CLI tests spawn Redocly and openapi-typescript over the whole contract.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most test files wait on child processes and loopback sockets (npm install, the suite against a
    // server), not on the CPU: two files at a time even on a two-core machine, where the default is one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
