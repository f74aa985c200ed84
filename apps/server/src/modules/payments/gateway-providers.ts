import type { Database } from '../../db/client.ts';
import type { GatewayRow } from '../../db/schema/index.ts';
import {
  findGateway,
  gatewayOfProviderName,
  gatewayProviderName,
  listGateways,
} from '../gateways/repository.ts';
import type { GatewayOffer, GatewayProviders, PaymentProvider } from '../orders/provider.ts';
import { createAlipayProvider } from './alipay.ts';
import { createEpayProvider } from './epay.ts';
import { createEpusdtProvider } from './epusdt.ts';

/** Each kind built so far, and how its provider is made from the gateway's row. */
const KINDS: Partial<
  Record<GatewayRow['kind'], (row: GatewayRow, secretsKey: Buffer | undefined) => PaymentProvider>
> = {
  epay: createEpayProvider,
  epusdt: createEpusdtProvider,
  alipay_f2f: createAlipayProvider,
};

/**
 * The back office's gateways as providers, read from the store at each use, so that a change made on
 * one instance holds on every other at once. A gateway turned off takes no new orders, but the orders
 * it has are still asked about.
 */
export function createGatewayProviders(db: Database, secretsKey: Buffer | undefined): GatewayProviders {
  // A kind whose provider is not built yet is stored but offers nothing.
  const providerOf = (row: GatewayRow) => KINDS[row.kind]?.(row, secretsKey) ?? null;
  const find = async (gatewayId: string, kind?: string) => {
    const row = await findGateway(db, gatewayId);
    const provider = row && (kind === undefined || row.kind === kind) ? providerOf(row) : null;
    return row && provider ? { row, provider } : null;
  };
  return {
    async find(name) {
      const gateway = gatewayOfProviderName(name);
      return gateway ? ((await find(gateway.id, gateway.kind))?.provider ?? null) : null;
    },
    async forCheckout(gatewayId, method) {
      const found = await find(gatewayId);
      if (!found?.row.enabled || !found.provider.methods.includes(method)) return null;
      return { provider: found.provider, feeBps: found.row.feeBps ?? 0 };
    },
    async offers() {
      const offers: GatewayOffer[] = [];
      for (const row of await listGateways(db)) {
        const provider = row.enabled ? providerOf(row) : null;
        if (!provider || provider.methods.length === 0) continue;
        offers.push({
          gatewayId: row.id,
          names: row.names,
          feeBps: row.feeBps ?? 0,
          methods: provider.methods,
        });
      }
      return offers;
    },
    async names() {
      return (await listGateways(db)).flatMap((row) => (KINDS[row.kind] ? [gatewayProviderName(row)] : []));
    },
  };
}
