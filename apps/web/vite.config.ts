import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiServer = 'http://127.0.0.1:8080';

export default defineConfig(({ command }) => {
  // The site is always built for production. Vite would otherwise follow a NODE_ENV set for the
  // server (`npm start` runs with development by default) and ship React's development build.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root: import.meta.dirname,
    plugins: [react()],
    resolve: {
      alias: {
        'use-sync-external-store/shim': resolve(
          import.meta.dirname,
          'src/lib/use-sync-external-store-shim.ts',
        ),
      },
    },
    build: {
      outDir: resolve(import.meta.dirname, 'dist'),
      emptyOutDir: true,
      assetsDir: 'assets',
      // No modulepreload polyfill in the entry: browsers have had modulepreload for years, and one
      // without it (Safari before 17) still loads every module, only once it is asked for.
      modulePreload: { polyfill: false },
    },
    server: {
      host: '127.0.0.1',
      proxy: {
        '/web': apiServer,
        // The sandbox payment provider's checkout page, served by the server.
        '/pay': apiServer,
        '/healthz': apiServer,
      },
    },
  };
});
