import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium.mjs';
import { E2E_PORT, JOURNEY_SERVER_COMMAND } from '../server/src/testing/journey-fixtures.ts';

const baseURL = `http://127.0.0.1:${E2E_PORT}`;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  // Two cores run the server and the browser; a second worker only makes both slower.
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    // English unless a journey asks otherwise: the first-load rule reads navigator.language.
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    // A failed journey's trace keeps its steps and the page's DOM at each; a film of the screen
    // as well would have every journey's browser encode frames for the few that fail.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: false },
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  webServer: {
    command: JOURNEY_SERVER_COMMAND,
    url: `${baseURL}/healthz`,
    env: { E2E_PORT: String(E2E_PORT) },
    // Never a server already on the port: the journeys need journey-server.ts's controls next to it.
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
