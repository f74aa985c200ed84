import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatDateTime } from '@skyway/shared/dates';
import type { Device, DeviceList } from '@skyway/shared/devices';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n.ts';
import { answer, ok, refused, requestsTo, sentTo, type Payload } from '../../../test/network.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { signIn, userInfo } from '../../../test/user-info.ts';
import { DESKTOP_WIDTH, PHONE_WIDTH, setViewportWidth } from '../../../test/viewport.ts';

vi.mock('../../../lib/toast.ts', () => import('../../../test/fake-toast.ts'));

const { showError, showSuccess } = await import('../../../test/fake-toast.ts');
const { DevicesPage } = await import('./devices-page.tsx');

const ORIGIN = 'https://skyway.example';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';

function device(position: number, fields: Partial<Device> = {}): Device {
  return {
    id: `00000000-0000-4000-8000-00000000000${position}`,
    position,
    name: null,
    platform: null,
    active: true,
    url: `${ORIGIN}/s/token-${position}`,
    created_at: 1_800_000_000,
    last_fetch_at: 0,
    upload: 0,
    download: 0,
    in_use_elsewhere: null,
    ...fields,
  };
}

const list = (devices: Device[], usable = devices.length): DeviceList => ({ devices, usable });

const card = (position: number) => screen.getByTestId(`device-${position}`);
const dialog = () => screen.getByRole('dialog');
const originalClipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
const originalUserAgent = Object.getOwnPropertyDescriptor(navigator, 'userAgent');

/** `ready` is a text the page shows once loaded: the guide's title, in the page's language. */
async function renderPage(devices: DeviceList, info = userInfo(), ready = 'How to connect') {
  answer('/web/device/list', ok(devices));
  answer('/web/user/info', ok(info));
  const rendered = await renderWithProviders([{ path: '*', element: <DevicesPage /> }], { url: '/devices' });
  await screen.findByText(ready);
  return rendered;
}

beforeEach(() => {
  signIn({ expire_user: 1_900_000_000, connections: 2 });
});

afterEach(() => {
  setViewportWidth(DESKTOP_WIDTH);
  if (originalClipboard) Object.defineProperty(navigator, 'clipboard', originalClipboard);
  else Reflect.deleteProperty(navigator, 'clipboard');
  if (originalUserAgent) Object.defineProperty(navigator, 'userAgent', originalUserAgent);
});

describe('DevicesPage', () => {
  it('shows each slot with its name, state, QR code, link and facts', async () => {
    await renderPage(
      list(
        [
          device(1, { name: 'My iPhone', platform: 'ios', last_fetch_at: 1_800_000_600, download: 1536 }),
          device(2, { active: false }),
        ],
        1,
      ),
    );
    expect(screen.getByTestId('devices-usable').textContent).toBe('1 of 2 devices active');

    const first = within(card(1));
    expect(first.getByText('My iPhone')).toBeTruthy();
    expect(first.getByText('Active')).toBeTruthy();
    expect(first.getByText('iPhone / iPad')).toBeTruthy();
    expect(first.getByText(formatDateTime(1_800_000_000))).toBeTruthy();
    expect(first.getByText(formatDateTime(1_800_000_600))).toBeTruthy();
    expect(first.getByText('↑ 0 B · ↓ 1.50 KB')).toBeTruthy();
    expect(first.getByLabelText<HTMLInputElement>('Subscription link').value).toBe(`${ORIGIN}/s/token-1`);
    expect(first.getByRole('img', { name: 'QR code of the link of My iPhone' }).tagName).toBe('svg');
    expect(first.queryByText(/does not cover this device/)).toBeNull();

    const second = within(card(2));
    expect(second.getByText('Device 2')).toBeTruthy();
    expect(second.getByText('Inactive')).toBeTruthy();
    expect(second.getByText('Never')).toBeTruthy();
    expect(second.getByText(/does not cover this device/)).toBeTruthy();
  });

  it('copies a slot’s link and says "Copy successful" for 1.5 s', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await renderPage(list([device(1), device(2)]));
    fireEvent.click(within(card(2)).getByRole('button', { name: /Copy link/ }));
    await waitFor(() => expect(showSuccess).toHaveBeenCalledWith('Copy successful', 1.5));
    expect(writeText).toHaveBeenCalledWith(`${ORIGIN}/s/token-2`);
    expect(showError).not.toHaveBeenCalled();
  });

  it('offers the import buttons of the apps on the visitor’s platform', async () => {
    Object.defineProperty(navigator, 'userAgent', { value: IPHONE, configurable: true });
    await renderPage(list([device(1, { name: 'Phone' })]));
    const imports = within(card(1))
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')]);
    expect(imports).toEqual([
      [
        'sing-box / Hiddify',
        `sing-box://import-remote-profile?url=${encodeURIComponent(`${ORIGIN}/s/token-1/sing-box`)}#${encodeURIComponent('Skyway · Phone')}`,
      ],
      ['Shadowrocket', `sub://${btoa(`${ORIGIN}/s/token-1`).replace(/=+$/, '')}`],
    ]);
    // The guide opens on the visitor's platform.
    expect(screen.getByText(/Install Shadowrocket or sing-box from the App Store/)).toBeTruthy();
  });

  it('renames a slot, checking the name first, and shows the new name', async () => {
    await renderPage(list([device(1), device(2)]));
    answer('/web/device/rename', (payload: Payload) =>
      ok(device(2, { name: String(payload.name), platform: 'android' })),
    );
    fireEvent.click(within(card(2)).getByRole('button', { name: /Rename/ }));
    const name = within(dialog()).getByLabelText<HTMLInputElement>('Name');
    expect(name.value).toBe('Device 2');

    fireEvent.change(name, { target: { value: '   ' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Save' }));
    await within(dialog()).findByText('Enter a name for the device');
    expect(requestsTo('/web/device/rename')).toHaveLength(0);

    fireEvent.change(name, { target: { value: ' Pixel ' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(showSuccess).toHaveBeenCalledWith('Device renamed', 1.5));
    expect(await sentTo('/web/device/rename')).toEqual([
      { id: device(2).id, name: 'Pixel', platform: expect.any(String) as string },
    ]);
    await waitFor(() => expect(within(card(2)).getByText('Pixel')).toBeTruthy());
    expect(within(card(1)).getByText('Device 1')).toBeTruthy();
  });

  it('resets a slot’s link only once confirmed, and shows the new link', async () => {
    await renderPage(list([device(1)]));
    answer('/web/device/regenerate', ok(device(1, { url: `${ORIGIN}/s/fresh` })));

    fireEvent.click(within(card(1)).getByRole('button', { name: /Reset link/ }));
    expect(within(dialog()).getByText(/The old link stops working at once/)).toBeTruthy();
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requestsTo('/web/device/regenerate')).toHaveLength(0);

    fireEvent.click(within(card(1)).getByRole('button', { name: /Reset link/ }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Reset' }));
    await waitFor(() =>
      expect(within(card(1)).getByLabelText<HTMLInputElement>('Subscription link').value).toBe(
        `${ORIGIN}/s/fresh`,
      ),
    );
    expect(await sentTo('/web/device/regenerate')).toEqual([{ id: device(1).id }]);
    expect(showSuccess).toHaveBeenCalledWith('New link ready: import it into the app again', 1.5);
  });

  it('keeps the link on screen when the server refuses a reset', async () => {
    await renderPage(list([device(1)]));
    answer('/web/device/regenerate', refused(404, 'Not found'));
    fireEvent.click(within(card(1)).getByRole('button', { name: /Reset link/ }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(requestsTo('/web/device/regenerate')).toHaveLength(1));
    expect(within(card(1)).getByLabelText<HTMLInputElement>('Subscription link').value).toBe(
      `${ORIGIN}/s/token-1`,
    );
    expect(showSuccess).not.toHaveBeenCalled();
  });

  it('offers the plans when there is no slot', async () => {
    answer('/web/device/list', ok(list([], 0)));
    answer('/web/user/info', ok(userInfo()));
    await renderWithProviders(<DevicesPage />);
    await screen.findByText(/No devices yet/);
    expect(screen.getByRole('link', { name: /Buy a subscription/ }).getAttribute('href')).toBe('/buy');
  });

  it('before a downgrade, lets the customer choose the slots to keep, no more than it covers', async () => {
    const from = Math.floor(Date.now() / 1000) + 86_400;
    await renderPage(
      list([device(1), device(2), device(3)]),
      userInfo({ connections: 3, pending_connections: 1, pending_from: from }),
    );
    const alert = await screen.findByText(
      `From ${formatDateTime(from)} your subscription covers 1 devices.`,
      {
        exact: false,
      },
    );
    answer('/web/device/keep', () =>
      ok(list([device(3, { position: 1 }), device(1, { position: 2 }), device(2, { position: 3 })], 3)),
    );
    fireEvent.click(
      within(alert.closest('.ant-alert') as HTMLElement).getByRole('button', { name: 'Choose devices' }),
    );

    const [first, second, third] = within(dialog()).getAllByRole<HTMLInputElement>('checkbox');
    if (!first || !second || !third) throw new Error('three slots to choose from');
    expect([first.checked, second.checked, third.checked]).toEqual([true, false, false]);
    expect(third.disabled).toBe(true);
    fireEvent.click(first);
    expect(third.disabled).toBe(false);
    fireEvent.click(third);
    expect(second.disabled).toBe(true);
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Keep these' }));
    await waitFor(() => expect(showSuccess).toHaveBeenCalledWith('Your choice is saved', 1.5));
    expect(await sentTo('/web/device/keep')).toEqual([{ ids: [device(3).id] }]);
  });

  it('switches the guide between platforms', async () => {
    await renderPage(list([device(1)]));
    fireEvent.click(screen.getByText('Windows'));
    await screen.findByText(/Install Clash Verge Rev or Hiddify/);
    fireEvent.click(screen.getByText('Android'));
    await screen.findByText(/Install FlClash, Clash Meta for Android/);
    expect(screen.getByRole('link', { name: /download page/ }).getAttribute('href')).toBe('/download');
    // "How to connect" leads to the help center's tutorial of the chosen platform's app.
    const tutorial = () => screen.getByTestId('connect-guide-tutorial');
    expect(tutorial().getAttribute('href')).toBe('/help/flclash');
    fireEvent.click(screen.getByText('iPhone / iPad'));
    expect(tutorial().getAttribute('href')).toBe('/help/shadowrocket');
    fireEvent.click(screen.getByText('Windows'));
    expect(tutorial().getAttribute('href')).toBe('/help/clash-verge-rev');
    fireEvent.click(screen.getByText('Other'));
    expect(tutorial().getAttribute('href')).toBe('/help');
    expect(tutorial().textContent).toBe('All tutorials in the help center');
  });

  it('on a phone, picks the guide’s platform from a list', async () => {
    setViewportWidth(PHONE_WIDTH);
    await renderPage(list([device(1)]));
    expect(screen.queryByText('Windows')).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Platform' })).toBeTruthy();
  });

  describe('when the link is in use on another device', () => {
    const REFUSED_AT = 1_800_000_900;
    const elsewhere = (position: number) =>
      card(position).querySelector<HTMLElement>('.device-card__elsewhere');

    afterEach(async () => {
      await act(() => i18n.changeLanguage('en'));
    });

    it('says where it is, since when a second device is turned away, and what to do', async () => {
      await renderPage(
        list([device(1, { in_use_elsewhere: { country: 'JP', refused_at: REFUSED_AT } }), device(2)]),
      );
      const warning = elsewhere(1);
      if (!warning) throw new Error('a warning on the slot in use elsewhere');
      expect(warning.getAttribute('role')).toBe('alert');
      const text = within(warning);
      expect(text.getByText('This link is in use on another device (location: Japan)')).toBeTruthy();
      expect(
        text.getByText(
          `Since ${formatDateTime(REFUSED_AT)}, a second device trying to use it has been turned away.`,
        ),
      ).toBeTruthy();
      expect(text.getByText(/Each link serves one device at a time/).textContent).toContain(
        'If you did not share the link, choose “Reset link”.',
      );
      expect(elsewhere(2)).toBeNull();
    });

    it('names the country in Simplified Chinese', async () => {
      await act(() => i18n.changeLanguage('zh'));
      await renderPage(
        list([device(1, { in_use_elsewhere: { country: 'JP', refused_at: REFUSED_AT } })]),
        userInfo(),
        '如何连接',
      );
      const text = within(elsewhere(1) ?? card(1));
      expect(text.getByText('此链接正在日本的另一台设备上使用')).toBeTruthy();
      expect(
        text.getByText(`自 ${formatDateTime(REFUSED_AT)} 起，尝试使用此链接的第二台设备被拒绝连接。`),
      ).toBeTruthy();
      expect(text.getByText(/请点击“重置链接”。$/)).toBeTruthy();
    });

    it('names the country in Traditional Chinese', async () => {
      await act(() => i18n.changeLanguage('tw'));
      await renderPage(
        list([device(1, { in_use_elsewhere: { country: 'US', refused_at: REFUSED_AT } })]),
        userInfo(),
        '如何連線',
      );
      const text = within(elsewhere(1) ?? card(1));
      expect(text.getByText('此連結正在美國的另一台裝置上使用')).toBeTruthy();
      expect(text.getByText(new RegExp(`^自 ${formatDateTime(REFUSED_AT)} 起`))).toBeTruthy();
    });

    it('says "an unknown location" when the other device’s country is not known', async () => {
      await renderPage(list([device(1, { in_use_elsewhere: { country: null, refused_at: REFUSED_AT } })]));
      const text = within(elsewhere(1) ?? card(1));
      expect(text.getByText('This link is in use on another device (location unknown)')).toBeTruthy();
      expect(text.getByText(new RegExp(`^Since ${formatDateTime(REFUSED_AT)}, `))).toBeTruthy();
    });

    it('shows no warning while the link is not in use elsewhere', async () => {
      await renderPage(list([device(1), device(2, { active: false })]));
      expect(elsewhere(1)).toBeNull();
      expect(elsewhere(2)).toBeNull();
      expect(screen.queryByText(/in use on another device/)).toBeNull();
      expect(screen.queryByText(/turned away/)).toBeNull();
    });
  });
});
