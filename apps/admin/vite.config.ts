import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiServer = 'http://127.0.0.1:8080';

// The back office, served by the server under /admin/ (PRODUCT.md section 5); nothing of it reaches
// the customer site's bundle.
export default defineConfig(({ command }) => {
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root: import.meta.dirname,
    base: '/admin/',
    plugins: [react()],
    build: {
      outDir: resolve(import.meta.dirname, 'dist'),
      emptyOutDir: true,
      assetsDir: 'assets',
      modulePreload: { polyfill: false },
      chunkSizeWarningLimit: 1500,
    },
    server: { host: '127.0.0.1', port: 5174, proxy: { '/admin/api': apiServer } },
  };
});
