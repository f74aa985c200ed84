import { randomBytes } from 'node:crypto';
import { LANGUAGE_PARAM } from '@skyway/shared/languages';
import type { PaymentProvider } from './provider.ts';

export const SANDBOX_PATH = '/pay/sandbox';

/**
 * The embedded default: a test checkout page served by this server (sandbox-routes.ts). Its token is
 * the checkout's id and the only key to it, like a real provider's session id; paying goes through
 * fulfilPayment like any provider's notification. The config refuses it in production.
 */
export function createSandboxProvider(): PaymentProvider {
  return {
    name: 'sandbox',
    async createCheckout({ language }) {
      const ref = randomBytes(24).toString('base64url');
      return { ref, url: `${SANDBOX_PATH}/${ref}?l=${LANGUAGE_PARAM[language]}` };
    },
    // The sandbox has nothing to ask: its Pay button fulfils the order at once.
    async findPayment() {
      return null;
    },
    // Nothing to close here: the page reads the order, and a closed order is not payable there.
    async closeCheckout() {},
  };
}
