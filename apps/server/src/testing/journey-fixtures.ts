// What the browser journeys of the site and of the back office know of their server: how to start
// it, where it listens, where its controls are, and the iOS app it takes notifications for. Plain
// constants and no server code, so that the Playwright configs and the journeys import it cheaply.
import path from 'node:path';

/** The port of the server that journey-server.ts starts for the journeys. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4180);

/** The port of journey-server.ts's controls for the journeys (mailed codes, App Store signatures, settings). */
export const controlPort = (port: number) => port + 1;

/** The address of one of journey-server.ts's controls (`/code`, `/setting`, …). */
export const controlUrl = (route: string) => `http://127.0.0.1:${controlPort(E2E_PORT)}${route}`;

/** How Playwright starts the journey server, from whichever app's folder it runs. */
export const JOURNEY_SERVER_COMMAND = `node --import tsx ${path.join(import.meta.dirname, 'journey-server.ts')}`;

/**
 * The iOS app that journey-server.ts's server takes App Store notifications for, signed by a test
 * chain that it trusts in place of Apple's root: its bundle id and its one product, a month of two
 * connections.
 */
export const E2E_APP_STORE = {
  bundleId: 'com.example.skyway',
  productId: 'com.example.skyway.month.2',
  connections: 2,
} as const;

/**
 * The Epay gateway journey-server.ts configures, served by the Epay stand-in: Alipay and WeChat Pay
 * with a fee of 1 %, offered after the sandbox's own methods.
 */
export const E2E_GATEWAY = {
  names: { en: 'Alipay (Epay)', zh: '支付宝（易支付）', tw: '支付寶（易支付）' },
  feeBps: 100,
} as const;

/** The coupon journey-server.ts makes at start: 20 % off any plan, no caps. */
export const E2E_COUPON = { code: 'SPRING20', percent: 20 } as const;
