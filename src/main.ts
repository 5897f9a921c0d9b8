import { loadConfig } from './config.js';
import { serve } from './server.js';

serve(loadConfig()).catch((err) => {
  console.error(err);
  process.exit(1);
});
