import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * `signed-out.html`: index.html for a browser that sent no session cookie (the service picks it). Without the two
 * preloads of signed-in reads, and marked `<meta name="kb-session" content="none">` so the app and boot.js know they
 * are signed out without asking: each read would answer 401, which the browser logs as an error.
 */
function signedOutShell(): Plugin {
  return {
    name: 'kb-signed-out-shell',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') return;
      const html = String(index.source);
      const signedOut = html
        .replace(/\s*<!--[^>]*?The two reads every signed-in screen[\s\S]*?-->/, '')
        .replace(/\s*<link rel="preload" href="\/api\/[^"]*" as="fetch" crossorigin \/>/g, '')
        .replace('<meta charset="UTF-8" />', '<meta charset="UTF-8" />\n    <meta name="kb-session" content="none" />');
      if (signedOut.includes('href="/api/') || !signedOut.includes('kb-session')) this.error('signed-out.html: index.html no longer has the expected preloads');
      this.emitFile({ type: 'asset', fileName: 'signed-out.html', source: signedOut });
    },
  };
}
const api = process.env.KB_API_URL ?? 'http://127.0.0.1:3000';

/**
 * The browser app. `npm run build` writes `web/dist/`, which the service serves at `/`; `npm run dev` serves this
 * folder with hot reload on :5173 and forwards `/api` (and the co-editing socket) to the local service.
 */
export default defineConfig({
  root: here,
  plugins: [
    react(),
    signedOutShell(),
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
