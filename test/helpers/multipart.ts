import type { FastifyInstance } from 'fastify';

/** A multipart/form-data body made by the platform's FormData (as a browser would send it). */
export async function multipart(parts: [string, string | { bytes: Buffer; filename: string; type: string }][]) {
  const form = new FormData();
  for (const [name, value] of parts)
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value.bytes)], { type: value.type }), value.filename);
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get('content-type') as string };
}

/** Sends `parts` as a multipart/form-data POST to `url` with `token` as the bearer credential; the raw response. */
export async function postMultipart(app: FastifyInstance, token: string, url: string, parts: Parameters<typeof multipart>[0]) {
  const { payload, contentType } = await multipart(parts);
  return app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, payload });
}
