import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    // The api client shows every failure as a toast: a retry would show it again, and a refetch on
    // focus would repeat calls that change nothing on screen.
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 60_000 },
    mutations: { retry: false },
  },
});
