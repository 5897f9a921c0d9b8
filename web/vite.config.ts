import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const here = path.dirname(fileURLToPath(import.meta.url));
const api = process.env.KB_API_URL ?? 'http://127.0.0.1:3000';

/**
 * The browser app. `npm run build` writes `web/dist/`, which the service serves at `/`; `npm run dev` serves this
 * folder with hot reload on :5173 and forwards `/api` (and the co-editing socket) to the local service.
 */
export default defineConfig({
  root: here,
  plugins: [
    react(),
    // Each file also as .br and .gz beside it, compressed once at build time at the strongest levels: the service sends
    // the one the browser accepts (@fastify/static's preCompressed) instead of the raw file (~4× the bytes).
    compression({
      include: /\.(js|mjs|css|html|svg)$/,
      threshold: 1024,
      skipIfLargerOrEqual: true,
      algorithms: ['gzip', 'brotliCompress'], // the plugin's defaults: gzip level 9, brotli quality 11
      logLevel: 'silent',
    }),
  ],
  resolve: { alias: { '@editor': path.resolve(here, '../src/editor') } },
  build: {
    outDir: path.resolve(here, 'dist'),
    emptyOutDir: true,
    // No inline scripts or modulepreload polyfill: the service's CSP is script-src 'self'.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1500,
    // Small shared chunks (a Mantine component, an icon: 0.4–20 KB each) are inlined into the chunks that use them.
    // Left alone, the first screen fetched ~35 files, 6 at a time over HTTP/1.1 from the same process that answers its
    // API reads; now ~15. Costs the shell ~13 KB gzipped (the entry takes in the small chunks it shared with screens).
    // Rolldown calls this experimental; without it the app works the same, in more files.
    rolldownOptions: {
      preserveEntrySignatures: false,
      output: { codeSplitting: { experimentalInlineCommonChunks: { maxSize: 24 * 1024 } } },
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    // /s/…: the public reader of share links is rendered by the service.
    proxy: { '/api': { target: api, changeOrigin: false, ws: true }, '/s/': { target: api, changeOrigin: false } },
  },
});
