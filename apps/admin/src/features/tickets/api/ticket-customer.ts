import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Page } from '@skyway/shared/paging';
import type { UserSectionEntry, userDetailSchema } from '@skyway/shared/schemas/admin/users';
import { api } from '../../../lib/api-client.ts';

type Entry<Kind extends UserSectionEntry['kind']> = Extract<UserSectionEntry, { kind: Kind }>;

/**
 * What staff see of the customer beside a thread: the account (its access), its devices, and its
 * latest orders and payments, from the accounts' own calls.
 */
export const useTicketCustomer = (userId: string, enabled: boolean) =>
  useQuery({
    queryKey: ['/users', userId, 'ticket-panel'],
    enabled,
    queryFn: async () => {
      const [account, devices, orders, payments] = await Promise.all([
        api<z.infer<typeof userDetailSchema>>('GET', `/users/${userId}`),
        api<Page<Entry<'devices'>>>('GET', `/users/${userId}/devices?size=10`),
        api<Page<Entry<'orders'>>>('GET', `/users/${userId}/orders?size=5`),
        api<Page<Entry<'payments'>>>('GET', `/users/${userId}/payments?size=5`),
      ]);
      return { account, devices: devices.items, orders: orders.items, payments: payments.items };
    },
  });
