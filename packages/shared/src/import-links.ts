import type { DevicePlatform } from './devices.ts';

/** An app's one-tap import of a subscription link, and the platforms that app runs on. */
export interface ImportLink {
  app: string;
  href: string;
  platforms: readonly DevicePlatform[];
}

/** base64url without padding, as Shadowrocket's `sub://` expects (the link is plain ASCII). */
const base64Url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * The one-tap import links of the common apps, each pointing at the format the app reads
 * (`clash://install-config`, `sing-box://import-remote-profile`, Shadowrocket's `sub://`), with the
 * platforms each app runs on, so that a page can offer a visitor the ones their device can open.
 */
export function importLinks(url: string, title: string): ImportLink[] {
  return [
    {
      app: 'Clash Verge / FlClash / mihomo',
      href: `clash://install-config?url=${encodeURIComponent(`${url}/clash`)}`,
      platforms: ['windows', 'macos', 'linux', 'android'],
    },
    {
      app: 'sing-box / Hiddify',
      href: `sing-box://import-remote-profile?url=${encodeURIComponent(`${url}/sing-box`)}#${encodeURIComponent(title)}`,
      platforms: ['ios', 'android', 'windows', 'macos', 'linux'],
    },
    { app: 'Shadowrocket', href: `sub://${base64Url(url)}`, platforms: ['ios', 'macos'] },
  ];
}

/** The import links an app on `platform` can open; every link when the platform is unknown. */
export function importLinksFor(url: string, title: string, platform: DevicePlatform | null): ImportLink[] {
  const links = importLinks(url, title);
  if (platform === null || platform === 'other') return links;
  return links.filter((link) => link.platforms.includes(platform));
}
