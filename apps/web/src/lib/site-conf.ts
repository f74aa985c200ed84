import { useQuery } from '@tanstack/react-query';
import type { SiteConf } from '@skyway/shared/site';
import { callApi } from './api-client.ts';

// Shared here rather than in a feature: the layouts, the download page and the legal pages all read
// it, and features may not import each other. The reply is typed, not parsed, to keep zod out of
// the public entry; the server builds it from its own validated configuration.
export function fetchSiteConf(): Promise<SiteConf> {
  return callApi<SiteConf>('/web/site/conf');
}

export function useSiteConf() {
  return useQuery({ queryKey: ['site-conf'], queryFn: fetchSiteConf, staleTime: Infinity });
}
