import { QueryClientProvider } from '@tanstack/react-query';
import { HelpArticlePage } from '../features/help/components/help-article-page.tsx';
import { HelpPage } from '../features/help/components/help-page.tsx';
import { lazyPage } from '../lib/lazy-page.ts';
import { queryClient } from './query-client.ts';

// antd and the devices' code download only when a signed-in reader opens an article with a device
// placeholder: the help pages themselves stay as light as the other public pages.
const HelpDeviceLinks = lazyPage(() => import('./help-device-links.tsx'), 'HelpDeviceLinks', 'devices');

// The public layout has no query client (its other pages need none): the help pages bring the
// console's, so an article's device picker shares My devices' cached list.

/** The help center's list and search. */
export function HelpRoute() {
  return (
    <QueryClientProvider client={queryClient}>
      <HelpPage />
    </QueryClientProvider>
  );
}

/** A help article, its device placeholders filled from My devices. */
export function HelpArticleRoute() {
  return (
    <QueryClientProvider client={queryClient}>
      <HelpArticlePage deviceLinks={HelpDeviceLinks} />
    </QueryClientProvider>
  );
}
