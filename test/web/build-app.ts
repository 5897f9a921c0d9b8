import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A fresh production build of the web app for this run (never the shared web/dist, which a build may be rewriting). */
    webDist: string;
  }
}

export default async function setup(project: TestProject) {
  const outDir = mkdtempSync(path.join(tmpdir(), 'kb-web-'));
  await build({ configFile: path.resolve('web/vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  project.provide('webDist', outDir);
  return () => rmSync(outDir, { recursive: true, force: true });
}
