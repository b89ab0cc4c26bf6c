// openapi.yaml -> generated/. `npm run codegen` writes the files; `npm run codegen:check`
// regenerates in memory and fails when anything on disk differs (CI runs it).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderFiles } from './render.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'generated');
const check = process.argv.includes('--check');

const files = await renderFiles(fs.readFileSync(path.join(root, 'openapi.yaml'), 'utf8'));

if (check) {
  const stale = Object.entries(files).filter(([name, text]) => {
    const file = path.join(outDir, name);
    return !fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text;
  });
  const extra = fs.existsSync(outDir) ? fs.readdirSync(outDir).filter((name) => !(name in files)) : [];
  if (stale.length > 0 || extra.length > 0) {
    for (const [name] of stale) console.error(`generated/${name} is stale`);
    for (const name of extra) console.error(`generated/${name} is not produced by codegen`);
    console.error('Run `npm run codegen` and commit generated/.');
    process.exit(1);
  }
  console.log(`generated/ is up to date (${Object.keys(files).length} files)`);
} else {
  fs.mkdirSync(outDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(outDir, name), text);
  console.log(`wrote ${Object.keys(files).length} files to generated/`);
}
