import { buildProgram } from './program.js';
import { operatorMessage } from './common.js';

/** The `kb` command. Run it with `npx kb …`, `npm run kb -- …` or `tsx src/cli/kb.ts …`. */
try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  const message = operatorMessage(err);
  if (message) console.error(`error: ${message}`);
  else console.error(err);
  process.exitCode = 1;
}
