// `npm run build -w apps/server`: the server as one JavaScript file for plain `node`, so production
// starts without a TypeScript loader (faster, and less memory per instance). Our own code and the
// shared package are bundled; installed packages stay in node_modules (native and wasm parts, such
// as argon2 and PGlite, load from there as they do under the loader). The migrations are copied
// next to the bundle, where db/migrate.ts looks for them.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const server = path.resolve(import.meta.dirname, '..');
const outdir = path.resolve(process.argv[2] ?? path.join(server, 'dist'));
const manifest = JSON.parse(readFileSync(path.join(server, 'package.json'), 'utf8'));
const bundled = new Set(['@skyway/shared']);

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [path.join(server, 'src/server.ts')],
  outfile: path.join(outdir, 'server.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  // A package marked external keeps its subpaths external too (drizzle-orm/pg-core, …).
  external: Object.keys(manifest.dependencies).filter((name) => !bundled.has(name)),
  logLevel: 'warning',
});
cpSync(path.join(server, 'src/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
console.log(`server bundled into ${path.relative(process.cwd(), outdir) || '.'}`);
