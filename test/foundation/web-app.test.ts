import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/factories.js';

const APP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https: http:; font-src 'self' data:; " +
  "connect-src 'self' ws: wss:; worker-src 'self' blob:; " +
  // Frames: the embed providers' players only (src/editor/embeds.ts).
  'frame-src https://codepen.io https://docs.google.com https://embed.figma.com https://miro.com https://player.vimeo.com https://www.figma.com ' +
  'https://www.loom.com https://www.youtube-nocookie.com; ' +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";
/** An asset big enough to be worth compressing (the build writes .br and .gz beside files of 1 KB and more). */
const BIG_JS = `${'export const line = "the quick brown fox jumps over the lazy dog";\n'.repeat(200)}console.log("app");\n`;
const INDEX = '<!doctype html><html><head><script type="module" src="/assets/x-abc.js"></script></head><body><div id="root">kb app shell</div></body></html>';

let t: TestApp;
let dist: string;
beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'kb-web-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  writeFileSync(path.join(dist, 'assets', 'x-abc.js'), 'console.log("app");\n');
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // As vite-plugin-compression2 leaves them: each compressed copy beside its file.
  writeFileSync(path.join(dist, 'assets', 'big-abc.js'), BIG_JS);
  writeFileSync(path.join(dist, 'assets', 'big-abc.js.br'), brotliCompressSync(BIG_JS));
  writeFileSync(path.join(dist, 'assets', 'big-abc.js.gz'), gzipSync(BIG_JS));
  writeFileSync(path.join(dist, 'index.html.br'), brotliCompressSync(INDEX));
  writeFileSync(path.join(dist, 'index.html.gz'), gzipSync(INDEX));
  t = await createTestApp({ WEB_DIST_DIR: dist });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

function expectAppShell(res: Awaited<ReturnType<TestApp['request']>>) {
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.body).toContain('kb app shell');
  expect(res.headers['cache-control']).toBe('no-cache');
  expect(res.headers['content-security-policy']).toBe(APP_CSP);
  // The other security headers stay.
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-request-id']).toBeTruthy();
}

function expectJsonNotFound(res: Awaited<ReturnType<TestApp['request']>>) {
  expect(res.status).toBe(404);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String), details: expect.any(Object) } });
}

describe('the app shell', () => {
  it('answers / with index.html, the app CSP and no-cache, without credentials', async () => {
    expectAppShell(await t.request({ url: '/' }));
    expectAppShell(await t.request({ url: '/index.html' }));
  });

  it('answers a deep link with the same page, so a reload works', async () => {
    expectAppShell(await t.request({ url: '/w/acme/s/eng/p/some-page-0190f0c2-7a1b-7c3d-8e4f-5a6b7c8d9e0f' }));
    expectAppShell(await t.request({ url: '/settings/keys?tab=new' }));
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await t.request({ method: 'HEAD', url: '/w/acme' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.raw.body).toBe('');
  });

  it('lets the browser revalidate the page by its ETag', async () => {
    const first = await t.request({ url: '/' });
    const again = await t.request({ url: '/', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.status).toBe(304);
  });
});

describe('files of the build', () => {
  it('serves hashed assets as immutable, with their content type and the app CSP', async () => {
    const res = await t.request({ url: '/assets/x-abc.js' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-security-policy']).toBe(APP_CSP);
    expect(res.body).toContain('console.log');
  });

  it('serves other files of the build, revalidated since their names carry no hash', async () => {
    const res = await t.request({ url: '/favicon.svg' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing asset or file 404, not the page', async () => {
    expectJsonNotFound(await t.request({ url: '/assets/missing.js' }));
    expectJsonNotFound(await t.request({ url: '/assets/deeper/missing' }));
    expectJsonNotFound(await t.request({ url: '/robots.txt' }));
  });

  it('never serves a file outside the build', async () => {
    for (const url of ['/%2e%2e/package.json', '/assets/%2e%2e/%2e%2e/package.json', '/..%2fpackage.json']) {
      const res = await t.request({ url });
      expect(res.status).not.toBe(200);
      expect(String(res.raw.body)).not.toContain('"dependencies"');
    }
  });
});

describe('compressed copies of the build', () => {
  const asset = '/assets/big-abc.js';
  const bytes = (res: Awaited<ReturnType<TestApp['request']>>) => res.raw.rawPayload;

  it('sends the brotli copy to a browser that accepts br, with the file’s type, headers and length', async () => {
    const res = await t.request({ url: asset, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-security-policy']).toBe(APP_CSP);
    expect(Number(res.headers['content-length'])).toBe(bytes(res).length);
    expect(bytes(res).length).toBeLessThan(Buffer.byteLength(BIG_JS) / 4);
    expect(brotliDecompressSync(bytes(res)).toString()).toBe(BIG_JS);
  });

  it('sends the gzip copy to one that accepts only gzip', async () => {
    const res = await t.request({ url: asset, headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(Number(res.headers['content-length'])).toBe(bytes(res).length);
    expect(gunzipSync(bytes(res)).toString()).toBe(BIG_JS);
  });

  it('sends the file itself without Accept-Encoding, or when the encoding accepted has no copy', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'deflate' }] as Record<string, string>[]) {
      const res = await t.request({ url: asset, headers });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.body).toBe(BIG_JS);
    }
    // A file with no compressed copy (too small to be worth one) is sent as it is.
    const small = await t.request({ url: '/assets/x-abc.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toContain('console.log');
  });

  it('answers HEAD with the compressed copy’s headers and no body', async () => {
    const get = await t.request({ url: asset, headers: { 'accept-encoding': 'br' } });
    const head = await t.request({ method: 'HEAD', url: asset, headers: { 'accept-encoding': 'br' } });
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.raw.body).toBe('');
  });

  it('sends a deep link the compressed index.html, with the app’s headers', async () => {
    const res = await t.request({ url: '/w/acme/s/eng/p/some-page', headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toBe(APP_CSP);
    expect(brotliDecompressSync(bytes(res)).toString()).toBe(INDEX);
    // Revalidation by ETag still works on the compressed copy.
    const again = await t.request({ url: '/', headers: { 'accept-encoding': 'br', 'if-none-match': String(res.headers.etag) } });
    expect(again.status).toBe(304);
  });

  it('never answers a missing asset with a compressed page', async () => {
    expectJsonNotFound(await t.request({ url: '/assets/missing.js', headers: { 'accept-encoding': 'br' } }));
  });
});

describe('the service’s own paths', () => {
  it('keeps answering unknown API and MCP paths with the JSON 404 and the API CSP', async () => {
    const res = await t.request({ url: '/api/v1/nope' });
    expectJsonNotFound(res);
    expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expectJsonNotFound(await t.request({ url: '/api/nope/deeper' }));
    expectJsonNotFound(await t.request({ url: '/mcp-standard/nope' }));
    expectJsonNotFound(await t.request({ url: '/mcp' }));
  });

  it('answers /.well-known/* paths it does not serve with the JSON 404, never the app (an OAuth client parses them as JSON)', async () => {
    for (const url of ['/.well-known/oauth-authorization-server/elsewhere', '/.well-known/anything/deeper', '/.well-known']) {
      const res = await t.request({ url });
      expectJsonNotFound(res);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
    }
    // The ones it serves are JSON too (test/oauth covers what they say).
    for (const url of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/.well-known/oauth-protected-resource/api/mcp']) {
      const res = await t.request({ url });
      expect(res.status, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
    }
  });

  it('answers a POST to an unknown non-API path with the JSON 404, not HTML', async () => {
    expectJsonNotFound(await t.request({ method: 'POST', url: '/w/acme', body: {} }));
    expectJsonNotFound(await t.request({ method: 'DELETE', url: '/' }));
  });

  it('still serves the API and its documentation page with its own CSP', async () => {
    const user = await createUser(t, 'Web');
    const me = await t.request({ url: '/api/v1/users/me', token: user.token });
    expect(me.status).toBe(200);
    let docs = await t.request({ url: '/api/docs' });
    for (let hops = 0; hops < 3 && docs.status >= 300 && docs.status < 400; hops++) {
      const location = String(docs.headers.location);
      docs = await t.request({ url: location.startsWith('/') ? location : `/api/docs/${location.replace(/^\.\//, '')}` });
    }
    expect(docs.status).toBe(200);
    expect(docs.body).toMatch(/swagger/i);
    expect(docs.headers['content-security-policy']).toContain("script-src 'self'");
    expect(docs.headers['content-security-policy']).not.toBe(APP_CSP);
  });
});

describe('an app that was not built', () => {
  it('starts, and answers the app’s paths 503 with a hint, while the API works', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'kb-web-empty-'));
    const unbuilt = await createTestApp({ WEB_DIST_DIR: path.join(empty, 'dist') });
    try {
      for (const url of ['/', '/w/acme/s/eng']) {
        const res = await unbuilt.request({ url });
        expect(res.status).toBe(503);
        expect(res.headers['content-type']).toMatch(/^text\/plain/);
        expect(res.body).toContain('The web app is not built: run npm run build');
      }
      expectJsonNotFound(await unbuilt.request({ url: '/assets/x-abc.js' }));
      expect((await unbuilt.request({ url: '/api/health' })).status).toBe(200);
    } finally {
      await unbuilt.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('the signed-out shell', () => {
  let app: TestApp;
  let folder: string;
  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'kb-web-'));
    writeFileSync(path.join(folder, 'index.html'), INDEX);
    writeFileSync(path.join(folder, 'signed-out.html'), INDEX.replace('kb app shell', 'kb signed-out shell'));
    app = await createTestApp({ WEB_DIST_DIR: folder });
  });
  afterAll(async () => {
    await app.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('goes to a browser with no session cookie (no reads that would answer 401); one with a session cookie gets the app shell', async () => {
    const out = await app.request({ url: '/w/acme' });
    expect(out.status).toBe(200);
    expect(out.body).toContain('kb signed-out shell');
    expect(out.headers.vary).toMatch(/cookie/i);
    expect(out.headers['content-security-policy']).toBe(APP_CSP);
    for (const cookie of ['kb_session=x', '__Host-kb_session=x']) {
      const shell = await app.request({ url: '/w/acme', headers: { cookie } });
      expect(shell.body).toContain('kb app shell');
      expect(shell.headers.vary).toMatch(/cookie/i);
    }
  });
});
