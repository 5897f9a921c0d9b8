import readline from 'node:readline/promises';
import { Writable } from 'node:stream';
import { CliError } from './common.js';

/** All of stdin as text (a piped password, a heredoc, `--password-stdin`). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Asks on the terminal without echoing what is typed; the prompt goes to stderr so stdout stays capturable. */
export async function askHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = readline.createInterface({ input: process.stdin, output, terminal: true });
  rl.on('SIGINT', () => {
    rl.close();
    process.stderr.write('\n');
    process.exit(130);
  });
  try {
    const answer = rl.question(question);
    muted = true; // the prompt is written; hide the keystrokes
    return await answer;
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}

/**
 * The password for a new account: the first line of stdin when it is piped or `fromStdin` is set, else asked twice on
 * the terminal without echo. Length and other rules are checked by the caller with the API's schema.
 */
export async function readPassword(options: { fromStdin: boolean }): Promise<string> {
  if (options.fromStdin || !process.stdin.isTTY) {
    const text = await readStdin();
    const line = text.split(/\r?\n/, 1)[0] ?? '';
    if (!line) throw new CliError('no password on stdin: pipe it in, e.g. `printf %s "$PASSWORD" | kb user create ... --password-stdin`');
    return line;
  }
  const first = await askHidden('Password (8+ characters): ');
  if (!first) throw new CliError('no password given');
  const second = await askHidden('Repeat password: ');
  if (first !== second) throw new CliError('the passwords do not match');
  return first;
}
