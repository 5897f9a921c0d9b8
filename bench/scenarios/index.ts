import { pagesScenario } from './pages.js';
import type { Scenario } from './types.js';
import { workspaceRead } from './workspace-read.js';

/** Every scenario `npm run bench` knows; later areas add theirs here. */
export const SCENARIOS: Scenario[] = [workspaceRead, pagesScenario];
