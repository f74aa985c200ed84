import { screen, within } from '@testing-library/react';
import type { NodeStatusList } from '@skyway/shared/schemas/node-status';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n.ts';
import { answer, ok } from '../../../test/network.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { signIn } from '../../../test/user-info.ts';
import { loadLevel, NodeStatusPage } from './node-status-page.tsx';

async function renderPage(status: NodeStatusList, ready: string) {
  answer('/web/node/status', ok(status));
  await renderWithProviders([{ path: '*', element: <NodeStatusPage /> }], { url: '/nodes' });
  await screen.findByText(ready);
}

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

beforeEach(() => {
  signIn({ expire_user: 1_900_000_000, connections: 2 });
});

describe('the node status page', () => {
  it('shows each server’s region by its name, whether it is online and how busy it is', async () => {
    await renderPage(
      {
        nodes: [
          { name: 'Tokyo 1', region: 'JP', online: true, load: 0.42 },
          { name: 'Lab', region: 'Moon base', online: false, load: 2.5 },
          { name: 'New', region: 'SG', online: false, load: null },
        ],
      },
      'Tokyo 1',
    );
    expect(within(row('Tokyo 1')).getByText('Japan')).toBeTruthy();
    expect(within(row('Tokyo 1')).getByText('Online')).toBeTruthy();
    expect(within(row('Tokyo 1')).getByText('Light (0.42)')).toBeTruthy();
    // A region that is no country code is shown as staff wrote it.
    expect(within(row('Lab')).getByText('Moon base')).toBeTruthy();
    expect(within(row('Lab')).getByText('Offline')).toBeTruthy();
    expect(within(row('Lab')).getByText('Heavy (2.50)')).toBeTruthy();
    expect(within(row('New')).getByText('Not reported yet')).toBeTruthy();
  });

  it('offers to buy when the subscription has no servers', async () => {
    await renderPage({ nodes: [] }, 'No servers are available to your subscription right now.');
    expect(screen.getByRole('link', { name: /Buy subscription/ }).getAttribute('href')).toBe('/buy');
  });

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh');
    try {
      await renderPage({ nodes: [{ name: 'Tokyo 1', region: 'JP', online: true, load: 1.2 }] }, 'Tokyo 1');
      expect(within(row('Tokyo 1')).getByText('日本')).toBeTruthy();
      expect(within(row('Tokyo 1')).getByText('在线')).toBeTruthy();
      expect(within(row('Tokyo 1')).getByText('繁忙 (1.20)')).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});

describe('loadLevel', () => {
  it('reads a 1-minute load average as light below one, busy below two, heavy from two', () => {
    expect([0, 0.99, 1, 1.99, 2, 8].map(loadLevel)).toEqual([
      'light',
      'light',
      'busy',
      'busy',
      'heavy',
      'heavy',
    ]);
  });
});
