// ESLint: typescript-eslint's recommended rules over the sources, the inspector, tests, scripts and examples
// (`npm run lint`, run by CI).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'src/client/api.generated.ts', 'src/client/control.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // `_`-prefixed names and the rest of a destructuring say "left out on purpose".
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  // Every JSON answer is made by answer() (docs/benchmarks.md: Where the time goes).
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='c'][callee.property.name='json']",
          message: 'Answer with answer(c, value, status) from src/http/answer.ts, which keeps the text for an idempotent replay.',
        },
      ],
    },
  },
  // The inspector runs in the browser (docs/inspector.md: The inspector).
  { files: ['ui/**'], languageOptions: { globals: globals.browser } },
  // The bin is CommonJS, which Node reaches sooner than an ES module.
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // Tests read JSON answers loosely.
  { files: ['src/**/*.test.ts', 'src/testing/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
