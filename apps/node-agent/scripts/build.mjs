// `npm run build -w apps/node-agent`: the agent as one JavaScript file for plain `node` (no
// TypeScript loader and no node_modules on the node), with the vendored .proto files beside it.
// Copy the whole `dist/` folder to a node: `node dist/node-agent.js`.
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const agent = path.resolve(import.meta.dirname, '..');
const outdir = path.resolve(process.argv[2] ?? path.join(agent, 'dist'));

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [path.join(agent, 'src/main.ts')],
  outfile: path.join(outdir, 'node-agent.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  // Bundled CommonJS packages (grpc-js, protobufjs) call require(): give the ES module one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
cpSync(path.join(agent, 'protos'), path.join(outdir, 'protos'), { recursive: true });
console.log(`node agent bundled into ${path.relative(process.cwd(), outdir) || '.'}`);
