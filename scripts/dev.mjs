// `npm run dev`: the API server restarting on change (port 8080) and Vite's dev servers with hot
// reload: the site on port 5173 (proxying /web and /healthz to the API) and the back office on port
// 5174 (/admin/, proxying /admin/api).
import { spawn } from 'node:child_process';
import { ensureDependencies, root, serverSourceProcess, superviseChildren } from './lib/project.mjs';

ensureDependencies();
const vite = (workspace) =>
  spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'dev', '-w', workspace], {
    cwd: root,
    stdio: 'inherit',
  });
superviseChildren([serverSourceProcess(['--watch']), vite('apps/web'), vite('apps/admin')]);
