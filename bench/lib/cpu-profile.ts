/** A CPU profile as Chromium's `Profiler.stop` returns it (the fields the summaries read). */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time (ms) by script file and by function (`name file:line`), summed over the profile's samples. */
export function selfTime(profile: CpuProfile): { total: number; byScript: Map<string, number>; byFunction: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const f = byId.get(id)?.callFrame;
    const script = f?.url ? f.url.replace(/^.*\//, '') : `(${f?.functionName || 'native'})`;
    const fn = `${f?.functionName || '(anonymous)'} ${script}:${f?.lineNumber ?? ''}`;
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    total += ms;
  });
  return { total, byScript, byFunction };
}

/** The `n` heaviest entries of a self-time map, one line each, heaviest first. */
export function heaviest(times: Map<string, number>, n = 25, indent = '  '): string[] {
  return [...times]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, ms]) => `${indent}${ms.toFixed(1).padStart(8)} ms  ${key}`);
}
