// Two projects: unit specs beside the code, e2e specs against the real app on real PostgreSQL.
// ts-jest transpiles only (isolatedModules); `npm run typecheck` does the type checking once, up front.
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }] };
/** What one test file leaves in the shared process must not keep it alive (see the file). */
const setupFilesAfterEnv = ['<rootDir>/test/support/file-isolation.ts'];

/** @type {import('jest').Config} */
module.exports = {
  // Starts one PostgreSQL for the run (embedded unless DATABASE_URL is set) and a migrated template database.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30000,
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      testEnvironment: 'node',
      transform,
      setupFilesAfterEnv,
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
    },
    {
      displayName: 'e2e',
      rootDir: __dirname,
      testEnvironment: 'node',
      transform,
      setupFilesAfterEnv,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
    },
  ],
};
