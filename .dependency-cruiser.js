/**
 * Module boundaries, checked by `npm run lint` (and so by `npm test`):
 * - `src/shared` is the bottom layer: it imports no feature module and nothing that composes the application.
 * - A feature module reaches another module only through that module's `index.ts`, its exported API (flows also
 *   exposes its engine through `flows/engine/index.ts`).
 * - Modules do not import the application's composition (`src/openapi`, `src/lifecycle`, the root
 *   module); the OpenAPI document is assembled from what the routes declare, never from imports of them.
 * - No import cycle, type-only imports included.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'shared-imports-no-module',
      severity: 'error',
      comment: 'src/shared is imported by the modules, never the other way round.',
      from: { path: '^src/shared/' },
      to: { path: '^src/(modules|lifecycle|openapi|health)/|^src/app\\.(module|factory)\\.ts$|^src/main\\.ts$' },
    },
    {
      name: 'module-imports-only-exported-api',
      severity: 'error',
      comment: 'Another module is reached through its index.ts, never through its internals.',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$', '^src/modules/flows/engine/index\\.ts$'] },
    },
    {
      name: 'module-imports-no-composition',
      severity: 'error',
      comment: 'Feature modules do not import the application composition (OpenAPI assembly, lifecycle, root module).',
      from: { path: '^src/modules/' },
      to: { path: '^src/(lifecycle|openapi)/|^src/app\\.(module|factory)\\.ts$|^src/main\\.ts$' },
    },
    {
      name: 'openapi-imports-no-application',
      severity: 'error',
      comment: 'src/openapi only assembles the document; the script that writes it lives in scripts/.',
      from: { path: '^src/openapi/' },
      to: { path: '^src/modules/|^src/app\\.(module|factory)\\.ts$' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles, type-only imports included.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
