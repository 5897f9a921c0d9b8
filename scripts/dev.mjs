#!/usr/bin/env node
// `npm run dev`: the API with restart on change (tsx watch, :3000) and the web app with hot reload (Vite, :5173,
// forwarding /api to the API). Writes the API types first so the app's client matches the routes.
import { spawn, spawnSync } from 'node:child_process';

const run = (cmd, args) => spawn(cmd, args, { stdio: 'inherit', shell: false });
const types = spawnSync('npx', ['tsx', 'scripts/openapi-types.ts'], { stdio: 'inherit' });
if (types.status !== 0) process.exit(types.status ?? 1);

const children = [run('npx', ['tsx', 'watch', 'src/main.ts']), run('npx', ['vite', '--config', 'web/vite.config.ts'])];
console.log('\n  API  http://127.0.0.1:3000/api\n  app  http://127.0.0.1:5173/  (open this one while developing)\n');
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children)
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
