import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, data } from '../../api/client';
import type { DataOf } from '../../api/types';
import { pageKeys, usePage } from '../pages/pages.queries';

/** An import of a zip or one Markdown/HTML file into a space: an upload, then a background job that writes pages. */
export type ImportJob = DataOf<'/api/v1/imports/{importId}'>;
export type ImportSource = ImportJob['source'];

/** Where the pages go: the top of a space, or under one of its pages. */
export interface ImportTarget {
  workspaceId: string;
  spaceId: string;
  parentPageId?: string;
}

export interface ImportChoices {
  file: File;
  source: ImportSource;
}

export interface UploadProgress {
  sent: number;
  total: number;
}

/** The files the service takes (the file picker's `accept`). */
export const IMPORT_ACCEPT = '.zip,.md,.markdown,.html';

const POLL_MS = 500;
export const isFinished = (job: ImportJob | undefined) => job?.status === 'succeeded' || job?.status === 'failed';

/**
 * A `fetch` for openapi-fetch that sends the request with XMLHttpRequest, the one browser API that reports upload
 * progress. The request arrives with the client's own headers (the session's CSRF token among them); the form is
 * sent as it is, so the browser writes the multipart boundary itself.
 */
function sendWithUploadProgress(form: FormData, onProgress: (p: UploadProgress) => void) {
  return (request: Request) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      request.headers.forEach((value, name) => {
        if (name !== 'content-type') xhr.setRequestHeader(name, value);
      });
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress({ sent: e.loaded, total: e.total });
      };
      xhr.onload = () =>
        resolve(
          new Response(xhr.responseText, { status: xhr.status, headers: { 'content-type': xhr.getResponseHeader('content-type') ?? 'application/json' } }),
        );
      xhr.onerror = () => reject(new TypeError('The upload failed'));
      xhr.onabort = () => reject(new DOMException('The upload was stopped', 'AbortError'));
      request.signal.addEventListener('abort', () => xhr.abort());
      xhr.send(form);
    });
}

/** Uploads the file as multipart (the text fields before the part `file`, as the service asks), following the bytes. */
export function useStartImport(target: ImportTarget) {
  const [upload, setUpload] = useState<UploadProgress | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  const mutation = useMutation({
    mutationFn: async ({ file, source }: ImportChoices) => {
      const form = new FormData();
      form.set('workspaceId', target.workspaceId);
      form.set('spaceId', target.spaceId);
      if (target.parentPageId) form.set('parentPageId', target.parentPageId);
      form.set('source', source);
      form.set('file', file, file.name);
      controller.current = new AbortController();
      setUpload({ sent: 0, total: file.size });
      return (await data(
        api.POST('/api/v1/imports', {
          body: form as never,
          bodySerializer: (b: unknown) => b as FormData,
          fetch: sendWithUploadProgress(form, setUpload),
          signal: controller.current.signal,
        } as never),
      )) as ImportJob;
    },
  });
  const reset = () => {
    controller.current?.abort();
    setUpload(null);
    mutation.reset();
  };
  return { ...mutation, upload, reset };
}

/** The import, polled every half second until it has succeeded or failed; on success the page trees are refreshed. */
export function useImportJob(started: ImportJob | undefined) {
  const queryClient = useQueryClient();
  const job = useQuery({
    queryKey: ['imports', started?.id],
    queryFn: () => data(api.GET('/api/v1/imports/{importId}', { params: { path: { importId: started?.id as string } } })),
    enabled: Boolean(started),
    initialData: started,
    refetchInterval: (query) => (isFinished(query.state.data) ? false : POLL_MS),
    gcTime: 0,
  });
  const succeeded = job.data?.status === 'succeeded';
  useEffect(() => {
    if (succeeded) void queryClient.invalidateQueries({ queryKey: pageKeys.all });
  }, [succeeded, queryClient]);
  return job;
}

/** The first page the import made (its title and slug, for the link to it). */
export function useFirstImportedPage(job: ImportJob | undefined) {
  return usePage(job?.status === 'succeeded' ? job.result?.rootPageIds[0] : null);
}
