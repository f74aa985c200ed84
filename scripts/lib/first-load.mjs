// The first load of a page as Chromium makes it: a cold browser opens the page and records every
// response until the network is idle, the document, scripts, styles, translations, icons and the
// site's own calls alike. Idle means no request open for QUIET_MS and none started since the page's
// main thread was last idle: Playwright's own `networkidle` (500 ms without a request) fires while a
// busy machine is still running the entry, before the page has asked for its own chunks.
import { createRequire } from 'node:module';
import path from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../apps/web/e2e/chromium.mjs';
import { root } from './project.mjs';

// Playwright comes with the web app's browser tests; it is resolved from there, as they load it.
const { chromium } = createRequire(path.join(root, 'apps/web/package.json'))('@playwright/test');

const QUIET_MS = 500;
const LOAD_TIMEOUT_MS = 60_000;

/** The phone Lighthouse's mobile run emulates (Moto G Power), so both measure the same layout. */
const PHONE_VIEWPORT = { width: 412, height: 823 };

export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * Every response of a cold load of `url` until the network is idle, each with the size of its body
 * as transferred (compressed as the server sent it) and of its headers. `locale` is the browser's
 * language, which picks the site's; `acceptEncoding`, when given, replaces Chromium's own
 * (`gzip, deflate, br, zstd`).
 */
export async function firstLoad(browser, url, { locale, acceptEncoding }) {
  const context = await browser.newContext({
    locale,
    viewport: PHONE_VIEWPORT,
    extraHTTPHeaders: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
  });
  try {
    const page = await context.newPage();
    const responses = [];
    const failures = [];
    const network = { open: 0, started: 0, changedAt: Date.now() };
    const settle = () => {
      network.open -= 1;
      network.changedAt = Date.now();
    };
    page.on('request', () => {
      network.open += 1;
      network.started += 1;
      network.changedAt = Date.now();
    });
    page.on('requestfinished', (request) => {
      settle();
      responses.push(sizeOf(request));
    });
    page.on('requestfailed', (request) => {
      settle();
      failures.push(`${request.url()}: ${request.failure()?.errorText}`);
    });
    await page.goto(url, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS });
    await networkIdle(page, network);
    if (failures.length) throw new Error(`requests failed while loading ${url}:\n${failures.join('\n')}`);
    return await Promise.all(responses);
  } finally {
    await context.close();
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once no request has been open for QUIET_MS and the page, idle, has started no other. */
async function networkIdle(page, network) {
  const deadline = Date.now() + LOAD_TIMEOUT_MS;
  for (;;) {
    while (network.open > 0 || Date.now() - network.changedAt < QUIET_MS) {
      if (Date.now() > deadline) throw new Error(`the network was not idle within ${LOAD_TIMEOUT_MS} ms`);
      await sleep(50);
    }
    const started = network.started;
    await page.evaluate(() => new Promise((resolve) => globalThis.requestIdleCallback(() => resolve())));
    if (network.started === started && network.open === 0) return;
  }
}

async function sizeOf(request) {
  const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
  const { pathname, search } = new URL(request.url());
  return {
    file: pathname + search,
    bytes: sizes.responseBodySize,
    headerBytes: sizes.responseHeadersSize,
    encoding: response?.headers()['content-encoding'] ?? 'identity',
  };
}
