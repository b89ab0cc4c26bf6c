// The home page's progress script (home-progress.js), read once at start and served as
// /assets/home.js. Plain browser JavaScript, no build step.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HOME_SCRIPT = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'home-progress.js'), 'utf8');
