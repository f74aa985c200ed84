import type { Language } from '@skyway/shared/languages';
import type { ListColumn } from '../../../components/paged-table.tsx';
import { inCurrentLanguage } from '../../../lib/i18n.ts';

/**
 * The provider of an order or a payment: a payment gateway by the name its buyers see, the site's
 * own provider by its name. The export keeps the provider's own name, which the lists filter by.
 */
export function providerColumn<
  Item extends { provider: string; gateway_names: Record<Language, string> | null },
>(title: string): ListColumn<Item> {
  return {
    title,
    dataIndex: 'provider',
    render: (provider: string, item) =>
      item.gateway_names ? inCurrentLanguage(item.gateway_names) : provider,
    csv: (item) => item.provider,
  };
}
