import { defineConfig } from '@playwright/test';
import site from '../web/playwright.config.ts';

// The site's browser set-up and its journey server (the server's journey-server.ts), which serves the
// back office beside the site on the same database; the journeys here are the back office's own
// (e2e/, resolved from this folder).
export default defineConfig({
  ...site,
  // A journey sets up two or three members of staff, each a page of its own.
  timeout: 60_000,
});
