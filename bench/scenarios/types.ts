import type { LoadOptions, Measurement } from '../lib/measure.js';
import type { Target } from '../lib/target.js';

export interface Ratio {
  label: string;
  value: number;
  /** The target for this ratio, when it has one. */
  atLeast?: number;
}

export interface ScenarioResult {
  measurements: Measurement[];
  ratios: Ratio[];
}

/** One benchmark: seeds what it needs on the target, measures, and compares against baselines of the same run. */
export interface Scenario {
  name: string;
  description: string;
  run(target: Target, load: LoadOptions): Promise<ScenarioResult>;
}
