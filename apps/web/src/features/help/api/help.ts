import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { HELP_QUERY_MAX } from '@skyway/shared/help';
import type { HelpArticle, HelpList, HelpSearchResults } from '@skyway/shared/schemas/help';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.ts';

/** Typing settles this long before a search is sent. */
const SEARCH_DELAY_MS = 250;

/** The published articles in the reader's language, by category then in their order. */
export function useHelpList() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ['help', 'list', i18n.language],
    queryFn: () => callApi<HelpList>('/web/help/list'),
  });
}

/**
 * One article, rendered by the server for this reader: signing in or out asks again, as the
 * sections for customers with access follow the session. A missing article is shown by the page.
 */
export function useHelpArticle(slug: string) {
  const { i18n } = useTranslation();
  const { token } = useSession();
  return useQuery({
    queryKey: ['help', 'article', slug, i18n.language, token !== null],
    queryFn: () => callApi<HelpArticle>('/web/help/article', { slug }, { silent: true }),
    retry: false,
  });
}

function useSettled(text: string): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return settled;
}

/** The articles matching a text once typing has settled; none for an empty text. */
export function useHelpSearch(text: string) {
  const { i18n } = useTranslation();
  const q = useSettled(text.trim().slice(0, HELP_QUERY_MAX));
  const query = useQuery({
    queryKey: ['help', 'search', q, i18n.language],
    queryFn: () => callApi<HelpSearchResults>('/web/help/search', { q }, { silent: true }),
    enabled: q.length > 0,
  });
  return { q, results: q.length > 0 ? query.data?.list : undefined };
}
