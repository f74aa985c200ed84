/** The port of the server that serve.ts starts for the journeys. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4180);

/** The port of serve.ts's controls for the journeys (mailed codes, App Store signatures, settings). */
export const controlPort = (port: number) => port + 1;

/**
 * The iOS app that serve.ts's server takes App Store notifications for, signed by a test chain that
 * it trusts in place of Apple's root: its bundle id and its one product, a month of two connections.
 */
export const E2E_APP_STORE = {
  bundleId: 'com.example.skyway',
  productId: 'com.example.skyway.month.2',
  connections: 2,
} as const;
