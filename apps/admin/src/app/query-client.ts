import { QueryClient } from '@tanstack/react-query';

/** A query client with the app's defaults: no retries, no refetch when the window regains focus. */
export const newQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
