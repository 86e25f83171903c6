// Lint rules: typescript-eslint's type-checked recommended set (with no-floating-promises and
// no-misused-promises: a promise nobody awaits loses its error); src's layers, where each folder
// imports only from itself and the layers below it (import-x's no-restricted-paths, which
// resolves every import to its file, so `../../model/x` counts as much as any other spelling);
// `vscode` kept out of the layers that run in plain Node; the timeline webview kept to browser
// code; and a cap on the size of a source file.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * src's layers, bottom to top. A file may import from its own layer and from those in `may`
 * (paths under src/), never from anything else under src/. Between the three upper siblings:
 * commands and integrations may import views; views imports neither; commands and integrations
 * do not import each other. src/extension.ts and src/api.ts, at the top, may import anything
 * under src/. Type-only imports count the same.
 */
const BELOW_VIEWS = ['common', 'record', 'events', 'model', 'cluster', 'services'];
const LAYERS = [
  { layer: 'common', may: [] },
  { layer: 'record', may: ['common'] },
  // tools/events' port stands on tools/record's (references, names, the broadcaster).
  { layer: 'events', may: ['common', 'record'] },
  { layer: 'model', may: ['common', 'record'] },
  { layer: 'cluster', may: ['common', 'record', 'events', 'model'] },
  { layer: 'services', may: ['common', 'record', 'events', 'model', 'cluster'] },
  { layer: 'views', may: BELOW_VIEWS },
  { layer: 'commands', may: [...BELOW_VIEWS, 'views'] },
  { layer: 'integrations', may: [...BELOW_VIEWS, 'views'] },
];

const ORDER = 'Layers, bottom to top: common, record, events, model, cluster, services, views, then commands and integrations (each may import views, not each other), then extension.ts and api.ts.';
const names = (paths) => paths.map((p) => `src/${p}`).join(', ').replace(/, ([^,]*)$/, ' and $1');

const layerZones = LAYERS.map(({ layer, may }) => ({
  target: `src/${layer}`,
  from: 'src',
  except: [...may, layer].map((p) => `./${p}`),
  message: `src/${layer} may import only from ${names([...may, layer])}. ${ORDER}`,
}));

/** The files the webview script may import besides its own folder: plain TS, no vscode, no Node. */
const WEBVIEW_SHARED = ['views/timeline/protocol.ts'];
const WEBVIEW_RULE = `The timeline webview (src/views/timeline/webview) runs in the webview's browser page: it may import only its own folder and ${names(WEBVIEW_SHARED)}, never vscode, node:* or a package.`;

const pathZones = [
  ...layerZones,
  {
    target: 'src/views/timeline/webview',
    from: 'src',
    except: ['./views/timeline/webview', ...WEBVIEW_SHARED.map((p) => `./${p}`)],
    message: WEBVIEW_RULE,
  },
  { target: 'src', from: 'test', message: 'Nothing under src/ may import from test/: the extension ships without it.' },
];

const NO_VSCODE = 'This layer runs in plain Node: import vscode only from src/services and above (src/views, src/commands, src/integrations, src/extension.ts, src/api.ts).';

/** An inline `import('…')` type escapes the rules above, which read import and export declarations. */
const NO_IMPORT_TYPE = { selector: 'TSImportType', message: 'Write `import type { … } from …` instead of an inline import(…) type: the layer rules check import declarations.' };

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.run/**', '.cache/**', 'test-results/**'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    // The project service finds each file's nearest tsconfig.json: the webview's own
    // (src/views/timeline/webview, DOM), test/ui's and test/bench's (Playwright: Node and DOM),
    // the root one for everything else.
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Off on purpose: an async function without await still turns a throw into a rejection,
      // which is what callers of a Promise-returning interface (a sink, a mocha hook) expect.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [...tseslint.configs.recommended],
    languageOptions: { globals: { require: 'readonly', module: 'writable', process: 'readonly', console: 'readonly', __dirname: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: pathZones }],
      'no-restricted-syntax': ['error', NO_IMPORT_TYPE],
      // Counts code only: blank lines and comments are free, so explaining a file never pushes it over.
      'max-lines': ['error', { max: 450, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['src/views/tree/eventsTreeProvider.ts'],
    rules: { 'max-lines': ['error', { max: 250, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['src/common/**', 'src/record/**', 'src/events/**', 'src/model/**', 'src/cluster/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: NO_VSCODE }] }],
      'no-restricted-syntax': ['error', NO_IMPORT_TYPE, { selector: "ImportExpression[source.value='vscode']", message: NO_VSCODE }],
    },
  },
  {
    files: ['src/views/timeline/webview/**'],
    rules: {
      // Any specifier that is not a relative path (vscode, node:fs, fs, a package) is refused;
      // no-restricted-paths above decides which relative paths are allowed.
      'no-restricted-imports': ['error', { patterns: [{ regex: '^[^.]', message: WEBVIEW_RULE }] }],
      'no-restricted-syntax': ['error', NO_IMPORT_TYPE, { selector: 'ImportExpression[source.value=/^[^.]/]', message: WEBVIEW_RULE }],
    },
  },
  {
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
);
