import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the service at /console (same origin as the API, so the refresh cookie and the Origin check just work).
// `npm run dev -w console` proxies the API to a service on :3000 for hot reloading.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 400 },
  server: { proxy: { '/v1': 'http://localhost:3000' } },
});
