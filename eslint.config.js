// ESLint for the kit: typescript-eslint's type-aware recommended rules over the TypeScript sources,
// the recommended JavaScript rules over the scripts and benchmarks. Layout belongs to Prettier
// (.prettierrc.json), so no rule here is about formatting.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['lib/', 'node_modules/', '.venv/', 'docs/site/', 'reports/', 'src/generated/'] },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // An async function that implements a Promise-returning interface (a check's `run`, a Fastify
      // handler) need not await anything.
      '@typescript-eslint/require-await': 'off',
      // A variable a closure reads before its one assignment (a server's handler and the server) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // A leading underscore names a value taken only to leave it out (a rest sibling, a callback's
      // unused argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read parsed JSON and answers of the code under test as they come: checking every member
    // access of those values would add casts, not safety.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
);
