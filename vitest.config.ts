import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

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

/**
 * The files that take half a minute to three minutes, longest first. Vitest starts the files it has no
 * timings for by size, and these are short files that run the whole suite, a package install or a
 * linter: started last, one of them would run alone at the end while the other core idles.
 */
const longFiles = [
  'test/package/installed.test.ts',
  'test/conformance/equivalence/equivalence.test.ts',
  'test/fuzz/reference-server.test.ts',
  'test/code-style.test.ts',
  'test/conformance/faults.test.ts',
  'test/docs/watch.test.ts',
  'test/contract/cli.test.ts',
  'test/conformance/equivalence/equivalence-open-contract.test.ts',
];

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const index = longFiles.findIndex((long) => file.moduleId.replaceAll('\\', '/').endsWith(long));
      return index === -1 ? longFiles.length : index;
    };
    // Within each project, in Vitest's order of projects; Array sort is stable, so the other files keep
    // Vitest's order (its timings when it has them, size otherwise).
    const sorted = await super.sort(files);
    const projects = [...new Set(sorted.map((file) => file.project.name))];
    const project = (file: TestSpecification): number => projects.indexOf(file.project.name);
    return sorted.sort((a, b) => project(a) - project(b) || rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    environment: 'node',
    sequence: { sequencer: LongFilesFirst },
    projects: testProjects(['test/**/*.test.ts']),
    // The artefact and CLI tests spawn Redocly and openapi-typescript over the whole contract.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most test files wait on child processes and loopback sockets (npm install, the suite against a
    // server), not on the CPU: two files at a time even on a two-core machine, where the default is one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
