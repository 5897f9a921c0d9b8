// The CPU pool's worker entry when the service runs from its TypeScript source (tsx, vitest): registers tsx's
// loader in this worker thread, then loads the task module. A build (`npm run build`) runs dist/workers/cpu-tasks.js
// directly and never loads this file.
import { register } from 'tsx/esm/api';

register();
const tasks = await import('./cpu-tasks.ts');

export default tasks.default;
