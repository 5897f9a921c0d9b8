import { databaseUpkeep } from './database-upkeep.js';
import { instances } from './instances.js';
import { mixedLoad } from './mixed-load.js';
import { oauthToken } from './oauth-token.js';
import { pageTree } from './page-tree.js';
import { pageWrites } from './page-writes.js';
import { pagesScenario } from './pages.js';
import type { Scenario } from './types.js';
import { workspaceRead } from './workspace-read.js';

/** Every scenario `npm run bench` knows; later areas add theirs here. */
export const SCENARIOS: Scenario[] = [workspaceRead, pagesScenario, pageWrites, pageTree, mixedLoad, instances, databaseUpkeep, oauthToken];
