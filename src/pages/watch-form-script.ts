// The report page's watch-form script (watch-form.js), read once at start and served as
// /assets/watch-form.js. Plain browser JavaScript, no build step.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const WATCH_FORM_SCRIPT = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'watch-form.js'), 'utf8');
