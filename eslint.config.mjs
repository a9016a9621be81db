// @ts-check
import eslint from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // test/fixtures/codecs: device codecs written for other network servers' runtimes, kept exactly as shipped;
  // templates/codecs: the starter catalog's payload formatters, classic scripts whose decodeUplink the sandbox calls;
  // console/: its build output, the document it is generated from and the generated API types.
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.data/**',
      'coverage/**',
      'openapi.json',
      'test/fixtures/codecs/**',
      'templates/codecs/**',
      'console/dist/**',
      'console/node_modules/**',
      'console/.generated/**',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: false },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
      // One length rule everywhere: code points, as PostgreSQL counts them (src/shared/validation/text-length).
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'class-validator',
              importNames: ['Length', 'MaxLength', 'MinLength', 'IsISO8601', 'IsDateString', 'IsEmail'],
              message: 'Use the shared rules: text-length (code points), DateTimeFormat (RFC 3339), EmailAddress.',
            },
          ],
        },
      ],
    },
  },
  // The flow engine is reached only through its index (src/modules/flows/engine/index.ts).
  {
    files: ['**/*.ts'],
    ignores: ['src/modules/flows/engine/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)(flows|\\.|\\.\\.)/engine/(?!index$)', message: 'Import the flow engine through its index (flows/engine), never one of its files.' }] },
      ],
    },
  },
  // The web console runs in the browser (its build scripts in Node, as ES modules).
  { files: ['console/src/**/*.{ts,tsx}'], languageOptions: { globals: globals.browser } },
  { files: ['console/scripts/**/*.mjs'], languageOptions: { sourceType: 'module', globals: globals.node } },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
