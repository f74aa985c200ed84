// `npm run dev`: the API server restarting on change (port 8080) and Vite's dev server with hot
// reload (port 5173, proxying /web and /healthz to the API).
import { spawn } from 'node:child_process';
import { ensureDependencies, root, serverSourceProcess, superviseChildren } from './lib/project.mjs';

ensureDependencies();
const web = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'dev', '-w', 'apps/web'], {
  cwd: root,
  stdio: 'inherit',
});
superviseChildren([serverSourceProcess(['--watch']), web]);
