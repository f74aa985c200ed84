import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { userDetailSchema } from '@skyway/shared/schemas/admin/users';
import { api } from '../../../lib/api-client.ts';

export type UserDetail = z.infer<typeof userDetailSchema>;

/** The lists and the account of the users' screens: refreshed after a change to an account. */
export const isUsersQuery = (key: readonly unknown[]) => String(key[0]).startsWith('/users');

/** An account's whole picture (asked only when the member may see accounts). */
export const useUser = (id: string, enabled: boolean) =>
  useQuery({ queryKey: ['/users', id], queryFn: () => api<UserDetail>('GET', `/users/${id}`), enabled });
