// openapi.yaml -> generated/ and the typed client package's sources in packages/client/.
// `npm run codegen` writes the files; `npm run codegen:check` regenerates in memory and
// fails when anything on disk differs (CI runs it).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_HAND_WRITTEN, renderClientPackage, renderFiles } from './render.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const yamlText = fs.readFileSync(path.join(root, 'openapi.yaml'), 'utf8');

// Codegen owns both folders: an extra file there is drift too (a second copy of the contract's
// types in packages/client, say). packages/client also holds its hand-written package.json and README.md.
const targets = [
  { dir: 'generated', files: await renderFiles(yamlText), handWritten: [] as readonly string[] },
  { dir: 'packages/client', files: await renderClientPackage(yamlText), handWritten: CLIENT_HAND_WRITTEN },
];

if (check) {
  let drift = false;
  for (const { dir, files, handWritten } of targets) {
    const outDir = path.join(root, dir);
    const stale = Object.entries(files).filter(([name, text]) => {
      const file = path.join(outDir, name);
      return !fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text;
    });
    const extra = fs.existsSync(outDir) ? fs.readdirSync(outDir).filter((name) => !(name in files) && !handWritten.includes(name)) : [];
    for (const [name] of stale) console.error(`${dir}/${name} is stale`);
    for (const name of extra) console.error(`${dir}/${name} is not produced by codegen`);
    drift ||= stale.length > 0 || extra.length > 0;
  }
  if (drift) {
    console.error('Run `npm run codegen` and commit generated/ and packages/client/.');
    process.exit(1);
  }
  console.log(`generated/ and packages/client/ are up to date (${targets.map((t) => Object.keys(t.files).length).join(' + ')} files)`);
} else {
  for (const { dir, files } of targets) {
    const outDir = path.join(root, dir);
    fs.mkdirSync(outDir, { recursive: true });
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(outDir, name), text);
    console.log(`wrote ${Object.keys(files).length} files to ${dir}/`);
  }
}
