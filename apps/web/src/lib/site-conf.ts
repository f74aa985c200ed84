import { useEffect, useState } from 'react';
import type { SiteConf } from '@skyway/shared/site';
import { callApi } from './api-client.ts';

// Shared here rather than in a feature: the layouts, the download page and the legal pages all read
// it, and features may not import each other. The reply is typed, not parsed, to keep zod out of
// the public entry; the server builds it from its own validated configuration. A plain module cache
// rather than TanStack Query, which the public pages do not otherwise need.
let loaded: SiteConf | undefined;
let loading: Promise<SiteConf> | undefined;

/** The site configuration, fetched once per page load; a failed fetch is tried again on next use. */
export function loadSiteConf(): Promise<SiteConf> {
  loading ??= callApi<SiteConf>('/web/site/conf').then(
    (conf) => (loaded = conf),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

export function useSiteConf(): { data: SiteConf | undefined } {
  const [data, setData] = useState(loaded);
  useEffect(() => {
    if (data) return;
    let current = true;
    loadSiteConf().then(
      (conf) => current && setData(conf),
      // The api client has shown the failure already.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [data]);
  return { data };
}
