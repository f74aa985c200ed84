// Debian's Chromium as every browser run here launches it: the browser tests, the first-load
// measure and Lighthouse. Plain JavaScript, so that the measuring scripts load it without a loader.

/** Where Debian installs it; `CHROME_PATH` names another. */
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** No GPU on these machines, and nothing of the browser's own traffic mixed with the site's. */
export const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
