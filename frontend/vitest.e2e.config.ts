import { defineConfig } from 'vitest/config';

// Browser end-to-end tests: Debian's Chromium, driven by playwright-core,
// against a real Trove server started by e2e/setup.ts.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    // The docs screenshots are made on demand (npm run screenshots).
    exclude: ['**/node_modules/**', ...(process.env.TROVE_DOCS_SCREENSHOTS === '1' ? [] : ['e2e/docs.e2e.ts'])],
    environment: 'node',
    globalSetup: ['e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
