// `npm start`: install on first run, build the web app when its sources changed, then serve site and
// API on http://localhost:8080 (PORT to change) with the embedded database unless DATABASE_URL is set.
import { ensureDependencies, ensureWebBuild, serverProcess, superviseChildren } from './lib/project.mjs';

ensureDependencies();
ensureWebBuild();
superviseChildren([serverProcess()]);
