import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// dist/ holds a committed .gitkeep, so it is not emptied; the previous
// build's output is removed instead.
const cleanDist = {
  name: 'trove-clean-dist',
  apply: 'build' as const,
  buildStart() {
    const dist = fileURLToPath(new URL('./dist/', import.meta.url));
    rmSync(dist + 'assets', { recursive: true, force: true });
    rmSync(dist + 'index.html', { force: true });
  },
};

// The UI is embedded in the Go binary and served at /, with index.html as the
// fallback for client-side routes, so assets use absolute /assets/ URLs.
export default defineConfig({
  plugins: [svelte(), cleanDist],
  base: '/',
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: false, // dist/.gitkeep stays
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    // `npm run dev` talks to a server on 127.0.0.1:8765 (or TROVE_URL).
    // Trove refuses foreign origins, so the proxy drops the dev page's Origin.
    proxy: {
      '/api': {
        target: process.env.TROVE_URL ?? 'http://127.0.0.1:8765',
        changeOrigin: true,
        configure: (proxy) => proxy.on('proxyReq', (req) => req.removeHeader('origin')),
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
    restoreMocks: true,
  },
  resolve: process.env.VITEST ? { conditions: ['browser'] } : undefined,
});
