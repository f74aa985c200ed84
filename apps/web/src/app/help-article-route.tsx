import { HelpArticlePage } from '../features/help/components/help-article-page.tsx';
import { lazyPage } from '../lib/lazy-page.ts';

// antd and the devices' code download only when a signed-in reader opens an article with a device
// placeholder: the help pages themselves stay as light as the other public pages.
const HelpDeviceLinks = lazyPage(() => import('./help-device-links.tsx'), 'HelpDeviceLinks', 'devices');

/** A help article, its device placeholders filled from My devices. */
export function HelpArticleRoute() {
  return <HelpArticlePage deviceLinks={HelpDeviceLinks} />;
}
