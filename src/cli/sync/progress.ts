/** Output of a sync run: a redrawn progress bar on a terminal, plain lines otherwise (logs, pipes, tests). */
export interface Reporter {
  /** A line for the log (stderr), e.g. `pushed docs/a.md`. */
  info(line: string): void;
  warn(line: string): void;
  /** Starts a counted task (`pushing`, 1,000 files). */
  start(label: string, total: number): void;
  /** Moves the bar to `done` (bytes is shown when given). */
  update(done: number, bytes?: number): void;
  finish(): void;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function createReporter(options: { stream?: NodeJS.WriteStream; quiet?: boolean } = {}): Reporter {
  const stream = options.stream ?? process.stderr;
  const tty = stream.isTTY === true;
  let label = '';
  let total = 0;
  let started = 0;
  let drawn = false;
  let lastPlain = -1;

  const clear = () => {
    if (drawn) {
      stream.write('\r\u001b[2K');
      drawn = false;
    }
  };
  const line = (text: string) => {
    if (options.quiet) return;
    clear();
    stream.write(`${text}\n`);
  };

  return {
    info: line,
    warn: (text) => {
      clear();
      stream.write(`warning: ${text}\n`);
    },
    start(l, t) {
      label = l;
      total = t;
      started = Date.now();
      lastPlain = -1;
    },
    update(done, bytes) {
      if (options.quiet || total === 0) return;
      const pct = Math.min(100, Math.floor((done / total) * 100));
      const extra = bytes === undefined ? '' : `  ${formatBytes(bytes)}`;
      if (tty) {
        const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - 50));
        const filled = Math.round((pct / 100) * width);
        const secs = ((Date.now() - started) / 1000).toFixed(1);
        stream.write(`\r\u001b[2K${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${pct}%${extra}  ${secs}s`);
        drawn = true;
      } else if (done === total || pct >= lastPlain + 25) {
        // plain output: a line at most every quarter, and at the end
        lastPlain = pct;
        stream.write(`${label}: ${done}/${total} (${pct}%)${extra}\n`);
      }
    },
    finish() {
      clear();
      total = 0;
    },
  };
}
