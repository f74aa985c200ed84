import { screen, within } from '@testing-library/react';
import type { Device } from '@skyway/shared/devices';
import { describe, expect, it } from 'vitest';
import { answer, ok, requestsTo } from '../test/network.ts';
import { renderWithProviders } from '../test/render.tsx';
import { signIn } from '../test/user-info.ts';
import { HelpArticleRoute } from './help-routes.tsx';

const OWN_URL = 'https://sub.example.com/s/own-token-1';

const device = (position: number, url: string): Device => ({
  id: `00000000-0000-4000-8000-00000000000${position}`,
  position,
  name: position === 1 ? 'My phone' : null,
  platform: null,
  active: true,
  url,
  created_at: 1_800_000_000,
  last_fetch_at: 0,
  upload: 0,
  download: 0,
  in_use_elsewhere: null,
});

describe('a help article with a device placeholder', () => {
  it("shows a signed-in customer My devices' link, QR code and import buttons for their own device", async () => {
    signIn({ expire_user: 1_900_000_000 });
    answer(
      '/web/help/article',
      ok({
        slug: 'sing-box',
        title: 'sing-box tutorial',
        category: 'clients',
        html: '<h2>Import your link</h2><div data-help-device=""></div>',
        update_time: 1_800_000_000,
      }),
    );
    answer('/web/device/list', ok({ devices: [device(1, OWN_URL), device(2, `${OWN_URL}-2`)], usable: 2 }));
    await renderWithProviders([{ path: '/help/:slug', element: <HelpArticleRoute /> }], {
      url: '/help/sing-box',
    });
    // The picker's code (antd and My devices' parts) is a chunk of its own, loaded when the article
    // asks for it: the first test to import it transforms it, which takes seconds on a busy machine.
    const picker = await screen.findByTestId('device-picker', {}, { timeout: 15_000 });
    expect(within(picker).getByRole('textbox', { name: 'Subscription link' })).toHaveProperty(
      'value',
      OWN_URL,
    );
    const singBox = within(picker).getByRole('link', { name: 'sing-box / Hiddify' });
    expect(singBox.getAttribute('href')).toContain(encodeURIComponent(`${OWN_URL}/sing-box`));
    expect(within(picker).getByRole('combobox', { name: 'Device' })).toBeTruthy();
    expect(requestsTo('/web/device/list')).toHaveLength(1);
  });
});
