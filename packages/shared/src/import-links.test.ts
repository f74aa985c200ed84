import { describe, expect, it } from 'vitest';
import { importLinks, importLinksFor } from './import-links.ts';

const URL_ = 'https://skyway.example/s/AbC-_123';

describe('importLinks', () => {
  it('points each app at the format it reads, the link recoverable from the href', () => {
    const [clash, singBox, shadowrocket] = importLinks(URL_, 'Skyway · Device 1');
    if (!clash || !singBox || !shadowrocket) throw new Error('three apps');
    const clashHref = new globalThis.URL(clash.href);
    expect(clashHref.protocol).toBe('clash:');
    expect(clashHref.searchParams.get('url')).toBe(`${URL_}/clash`);

    const singBoxHref = new globalThis.URL(singBox.href);
    expect(singBoxHref.protocol).toBe('sing-box:');
    expect(singBoxHref.searchParams.get('url')).toBe(`${URL_}/sing-box`);
    expect(decodeURIComponent(singBoxHref.hash.slice(1))).toBe('Skyway · Device 1');

    expect(shadowrocket.href).toMatch(/^sub:\/\/[A-Za-z0-9_-]+$/);
    const encoded = shadowrocket.href.slice('sub://'.length).replace(/-/g, '+').replace(/_/g, '/');
    expect(atob(encoded.padEnd(Math.ceil(encoded.length / 4) * 4, '='))).toBe(URL_);
  });

  it('offers a platform only the apps that run on it, and every app when the platform is unknown', () => {
    const apps = (platform: Parameters<typeof importLinksFor>[2]) =>
      importLinksFor(URL_, 'Skyway', platform).map((link) => link.app);
    expect(apps('ios')).toEqual(['sing-box / Hiddify', 'Shadowrocket']);
    expect(apps('windows')).toEqual(['Clash Verge / FlClash / mihomo', 'sing-box / Hiddify']);
    expect(apps('android')).toEqual(['Clash Verge / FlClash / mihomo', 'sing-box / Hiddify']);
    expect(apps(null)).toHaveLength(3);
    expect(apps('other')).toHaveLength(3);
  });
});
