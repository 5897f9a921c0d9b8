#!/usr/bin/env node
// `npm start` (and `npm run worker`: `node bin/start.js worker`): runs the compiled service from dist/ (no TypeScript loader in the process: about 100 MB less), and
// rebuilds it first when a source file is newer than the last build, so a `git pull` never serves stale code.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = `${root}dist/.tsbuildinfo`;

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = `${dir}/${entry.name}`;
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function builtAt(file = stamp) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

if (newestSource(`${root}src`) > builtAt()) {
  console.log('kb: building dist/ (the source changed since the last build)');
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`], { stdio: 'inherit' });
}
// The web app (served by the service, not by the worker): rebuilt when its source or the shared editor schema changed.
const webSource = Math.max(newestSource(`${root}web/src`), newestSource(`${root}src/editor`), statSync(`${root}web/index.html`).mtimeMs);
if (process.argv[2] !== 'worker' && webSource > builtAt(`${root}web/dist/index.html`)) {
  console.log('kb: building web/dist/ (the web app changed since the last build)');
  execFileSync(process.execPath, [`${root}node_modules/vite/bin/vite.js`, 'build', '--config', `${root}web/vite.config.ts`, '--logLevel', 'warn'], { stdio: 'inherit' });
}
// `worker` runs the `kb worker` command (its argument parser reads process.argv); nothing else is taken.
await import(new URL(process.argv[2] === 'worker' ? '../dist/cli/kb.js' : '../dist/main.js', import.meta.url).href);
