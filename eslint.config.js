// ESLint: typescript-eslint's strict, type-aware rules over src/, test/ and bench/ (the
// TypeScript program of tsconfig.json), the recommended rules over the plain scripts, and
// eslint-config-prettier last so that formatting is Prettier's alone. `npm run lint` runs it
// with Prettier's check; .ci/run runs `npm run lint` before the tests.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'dist.*/**', 'node_modules/**', 'data/**', 'test-output/**', 'src/types/schema-types.ts'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.strictTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // tsconfig has noUncheckedIndexedAccess: every index read is `T | undefined`, and the
      // engine's loops over CSR arrays and index maps assert with `!` where the bound is known.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Numbers and booleans read naturally in messages; null, undefined and objects stay refused.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
    },
  },
  {
    // Tests and the independent checker read responses as untyped JSON on purpose (they check
    // what the service sent, not what its types promise).
    files: ['test/**/*.ts', 'bench/schedule-checker.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  prettier,
);
