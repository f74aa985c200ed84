// Runs after `vite build`: writes .br and .gz next to every text asset in dist that they make smaller
// (the server sends them as they are, so the work happens once, at the best ratio; small files
// too, as a page's first load fetches a dozen of them) and reports the gzip size of what the
// public pages load first, written to dist/build-report.json as well.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = join(import.meta.dirname, '..', 'dist');
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

const gzip = (buffer) => gzipSync(buffer, { level: 9 });
const brotli = (buffer) =>
  brotliCompressSync(buffer, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: buffer.length,
    },
  });

async function compressAll() {
  let count = 0;
  for await (const path of walk(dist)) {
    if (!COMPRESSIBLE.test(path) || path.endsWith('build-report.json')) continue;
    const content = await readFile(path);
    const variants = [
      [`${path}.gz`, gzip(content)],
      [`${path}.br`, brotli(content)],
    ].filter(([, compressed]) => compressed.length < content.length);
    for (const [file, compressed] of variants) await writeFile(file, compressed);
    if (variants.length) count += 1;
  }
  return count;
}

/** The files index.html makes the browser fetch before the first render: scripts, preloads, styles. */
function entryAssets(html) {
  const assets = new Set();
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const attribute = (name) => tag.match(new RegExp(`\\b${name}="([^"]*)"`))?.[1];
    const rel = attribute('rel');
    const url = tag.startsWith('<script')
      ? attribute('src')
      : rel === 'modulepreload' || rel === 'stylesheet'
        ? attribute('href')
        : undefined;
    if (url && url.startsWith('/') && !url.startsWith('//')) assets.add(url);
  }
  return [...assets];
}

async function reportEntry() {
  const html = await readFile(join(dist, 'index.html'));
  const files = [{ file: 'index.html', bytes: html.length, gzipBytes: gzip(html).length }];
  for (const url of entryAssets(html.toString('utf8'))) {
    const content = await readFile(join(dist, url));
    files.push({ file: url.slice(1), bytes: content.length, gzipBytes: gzip(content).length });
  }
  const gzipBytes = files.reduce((sum, file) => sum + file.gzipBytes, 0);
  const report = { publicEntry: { gzipBytes, gzipKilobytes: Number((gzipBytes / 1000).toFixed(1)), files } };
  await writeFile(join(dist, 'build-report.json'), `${JSON.stringify(report, null, 2)}\n`);
  return { gzipBytes, files };
}

const compressed = await compressAll();
const { gzipBytes, files } = await reportEntry();
console.log(`compressed ${compressed} files in ${relative(process.cwd(), dist) || '.'} (.br and .gz)`);
for (const file of files) console.log(`  ${file.file}: ${(file.gzipBytes / 1000).toFixed(1)} kB gzip`);
console.log(`public entry (index.html + JS + CSS loaded by it): ${(gzipBytes / 1000).toFixed(1)} kB gzip`);
