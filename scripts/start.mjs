// `npm start`: install on first run, build the web app and bundle the server when their sources
// changed, then run the compiled server with plain node: site and API on http://localhost:8080 (PORT
// to change), with the embedded database unless DATABASE_URL is set.
import {
  ensureDependencies,
  ensureServerBuild,
  ensureWebBuild,
  serverProcess,
  superviseChildren,
} from './lib/project.mjs';

ensureDependencies();
ensureWebBuild();
ensureServerBuild();
superviseChildren([serverProcess()]);
