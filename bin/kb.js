#!/usr/bin/env node
// Launcher for the `kb` command (package bin, `npx kb`): runs the TypeScript source through tsx in this process,
// so signals, stdio and the exit code are the command's own.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../src/cli/kb.ts', import.meta.url).href);
