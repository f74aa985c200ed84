import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { staffSessionSchema } from '@skyway/shared/schemas/admin/staff';
import type { Permission } from '@skyway/shared/staff';
import { ApiError } from '@skyway/shared/api-error';
import { api, setCsrfToken } from './api-client.ts';

export type StaffSession = z.infer<typeof staffSessionSchema>;

export const SESSION_KEY = ['session'];

/** The signed-in member, or null when signed out (a 401). */
export async function fetchSession(): Promise<StaffSession | null> {
  try {
    const session = await api<StaffSession>('GET', '/session');
    setCsrfToken(session.csrf_token);
    return session;
  } catch (error) {
    if (error instanceof ApiError && error.code === 401) return null;
    throw error;
  }
}

export const useSession = () => useQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: 60_000 });

/** What the member's role may do: the server refuses the rest regardless. */
export function useCan(): (permission: Permission) => boolean {
  const { data } = useSession();
  return (permission) => (data?.permissions as string[] | undefined)?.includes(permission) ?? false;
}

export function useSetSession(): (session: StaffSession | null) => void {
  const client = useQueryClient();
  return (session) => {
    setCsrfToken(session?.csrf_token ?? null);
    client.setQueryData(SESSION_KEY, session);
  };
}
