import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { contractsWithoutSchemas } from './scripts/vite-contracts.js';
import { precompress } from './scripts/vite-precompress.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** The UI lives in src/ui and is built into dist/public, which the server serves (src/server/plugins/static-ui.ts). */
export default defineConfig({
  root: here('./src/ui'),
  plugins: [contractsWithoutSchemas(here('.')), react(), tailwindcss(), precompress()],
  resolve: {
    alias: {
      '@': here('./src/ui'),
      '@shared': here('./src/shared'),
    },
  },
  build: {
    outDir: here('./dist/public'),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 800,
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3001', changeOrigin: false } },
  },
});
