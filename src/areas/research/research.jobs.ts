import type { AreaJobs } from '../../jobs/registry.js';
import { createResearchHandler, RESEARCH_JOB_KIND } from './research.runner.js';

/** Research's background work: one job kind that runs a research job with the settings of the runtime running it. */
export const researchJobs: AreaJobs = {
  handlers: { [RESEARCH_JOB_KIND]: createResearchHandler((jc) => jc.env) },
};
