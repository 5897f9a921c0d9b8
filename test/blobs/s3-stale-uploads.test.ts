import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore } from '../../src/blobs/index.js';

/**
 * The sweep's other half on S3: multipart uploads abandoned mid-way (a crash) hold storage without being objects, and
 * `listBefore` aborts those begun before its cut-off. s3rver implements neither ListMultipartUploads nor
 * AbortMultipartUpload, so this file answers those two calls (and an empty ListObjectsV2) itself, in S3's own XML,
 * over HTTP, to the real S3 client; two pages of uploads exercise the markers.
 */

const BUCKET = 'kb-stale';
const OLD = '2020-01-01T00:00:00.000Z';
const NEW = new Date(Date.now() + 3600_000).toISOString();
/** Open uploads: key, upload id, initiated. */
let uploads: [string, string, string][] = [];
const requests: string[] = [];
let server: Server;
let endpoint: string;

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const NS = 'xmlns="http://s3.amazonaws.com/doc/2006-03-01/"';

function listUploads(keyMarker: string | null): string {
  // Two per page, in key order, continuing after the key marker (as S3 does: by key, not by position).
  const after = uploads.filter(([key]) => !keyMarker || key > keyMarker);
  const page = after.slice(0, 2);
  const truncated = after.length > 2;
  const last = page.at(-1);
  return xml(
    `<ListMultipartUploadsResult ${NS}><Bucket>${BUCKET}</Bucket><Prefix>blobs/</Prefix><MaxUploads>2</MaxUploads>` +
      `<IsTruncated>${truncated}</IsTruncated>` +
      (truncated && last ? `<NextKeyMarker>${last[0]}</NextKeyMarker><NextUploadIdMarker>${last[1]}</NextUploadIdMarker>` : '') +
      page.map(([key, id, at]) => `<Upload><Key>${key}</Key><UploadId>${id}</UploadId><Initiated>${at}</Initiated></Upload>`).join('') +
      '</ListMultipartUploadsResult>',
  );
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const onBucket = url.pathname === `/${BUCKET}` || url.pathname === `/${BUCKET}/`;
    if (req.method === 'GET' && onBucket && url.searchParams.has('uploads')) {
      res.writeHead(200, { 'content-type': 'application/xml' }).end(listUploads(url.searchParams.get('key-marker')));
    } else if (req.method === 'GET' && onBucket && url.searchParams.get('list-type') === '2') {
      res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          xml(`<ListBucketResult ${NS}><Name>${BUCKET}</Name><Prefix>blobs/</Prefix><KeyCount>0</KeyCount><IsTruncated>false</IsTruncated></ListBucketResult>`),
        );
    } else if (req.method === 'DELETE' && url.searchParams.has('uploadId')) {
      const key = decodeURIComponent(url.pathname.slice(BUCKET.length + 2));
      uploads = uploads.filter(([k, id]) => !(k === key && id === url.searchParams.get('uploadId')));
      res.writeHead(204).end();
    } else {
      res.writeHead(501, { 'content-type': 'application/xml' }).end(xml('<Error><Code>NotImplemented</Code><Message>not here</Message></Error>'));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('S3 store: abandoned multipart uploads', () => {
  it('aborts the uploads begun before the cut-off, across pages, and leaves recent ones', async () => {
    uploads = [
      ['blobs/a1', 'u-a1', OLD],
      ['blobs/b2', 'u-b2', NEW],
      ['blobs/c3', 'u-c3', OLD],
      ['blobs/d4', 'u-d4', OLD],
      ['blobs/e5', 'u-e5', NEW],
    ];
    const store = createBlobStore({
      DATA_DIR: '/tmp/unused',
      STORAGE_DRIVER: 's3',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      S3_FORCE_PATH_STYLE: true,
    });
    try {
      const keys: string[] = [];
      for await (const key of store.listBefore(new Date())) keys.push(key);
      expect(keys).toEqual([]);
      expect(uploads.map(([key]) => key)).toEqual(['blobs/b2', 'blobs/e5']);
      expect(requests.filter((r) => r.startsWith('DELETE')).sort()).toEqual([
        'DELETE /kb-stale/blobs/a1?uploadId=u-a1&x-id=AbortMultipartUpload',
        'DELETE /kb-stale/blobs/c3?uploadId=u-c3&x-id=AbortMultipartUpload',
        'DELETE /kb-stale/blobs/d4?uploadId=u-d4&x-id=AbortMultipartUpload',
      ]);
      // Three pages of two: the markers were followed.
      expect(requests.filter((r) => r.startsWith('GET') && r.includes('uploads')).length).toBe(3);
    } finally {
      store.close?.();
    }
  });
});
