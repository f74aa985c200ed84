import { defineConfig } from '@playwright/test';
import { SMTP_CATCHER_URL } from './e2e/fixtures.ts';

const port = Number(process.env.E2E_PORT ?? 4180);
const baseURL = `http://127.0.0.1:${port}`;

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
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'journeys', testIgnore: /logout\.spec\.ts/ },
    // Logging out revokes the one seeded session that every other journey signs in with.
    { name: 'logout', testMatch: /logout\.spec\.ts/, dependencies: ['journeys'] },
  ],
  webServer: {
    command: 'node --import tsx e2e/serve.ts',
    url: `${baseURL}/healthz`,
    env: { E2E_PORT: String(port), E2E_SMTP_URL: SMTP_CATCHER_URL },
    // A fresh server (and database) per run: the logout journey revokes the seeded session.
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
