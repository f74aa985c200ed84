// `npm start`: install on first run, build the web app and the back office and bundle the server
// when their sources changed, then run the compiled server with plain node: site, back office
// (/admin/) and API on http://localhost:8080 (PORT to change), with the embedded database unless
// DATABASE_URL is set.
import {
  ensureAdminBuild,
  ensureDependencies,
  ensureServerBuild,
  ensureWebBuild,
  serverProcess,
  superviseChildren,
} from './lib/project.mjs';

ensureDependencies();
await ensureWebBuild();
await ensureAdminBuild();
await ensureServerBuild();
superviseChildren([serverProcess()]);
