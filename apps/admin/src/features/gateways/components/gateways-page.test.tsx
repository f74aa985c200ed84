import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, ok, refused, requestsTo } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { signedInAs } from '../../../test/session.ts';
import type { Gateway } from '../api/list-gateways.ts';
import { GatewaysPage } from './gateways-page.tsx';

const epay: Gateway = {
  id: '00000000-0000-4000-8000-0000000000e1',
  kind: 'epay',
  names: { en: 'Alipay (Epay)', zh: '支付宝（易支付）', tw: '支付寶（易支付）' },
  methods: ['alipay', 'wxpay'],
  position: 0,
  fee_bps: 150,
  enabled: true,
  settings: { url: 'https://pay.example.com', pid: '1001', mode: 'page' },
  keys_set: true,
  created_at: '2026-03-01T08:00:00.000Z',
  updated_at: '2026-03-02T08:00:00.000Z',
};

const usdt: Gateway = {
  id: '00000000-0000-4000-8000-0000000000e2',
  kind: 'epusdt',
  names: { en: 'USDT (TRC20)', zh: 'USDT（TRC20）', tw: 'USDT（TRC20）' },
  methods: ['usdt'],
  position: 5,
  fee_bps: null,
  enabled: false,
  settings: { url: 'https://usdt.example.com' },
  keys_set: true,
  created_at: '2026-03-01T08:00:00.000Z',
  updated_at: '2026-03-01T08:00:00.000Z',
};

const answerGateways = () => answer('GET', '/gateways', ok({ items: [epay, usdt] }));

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('the payment gateways page', () => {
  it('is not for support', async () => {
    signedInAs('support');
    await renderScreen(<GatewaysPage />);
    expect(await screen.findByText('Your role does not allow this page')).toBeTruthy();
  });

  it('lists each gateway with its kind, methods, fee as a percentage, place, switch and keys', async () => {
    signedInAs('finance');
    answerGateways();
    await renderScreen(<GatewaysPage />);
    const row = await rowOf('Alipay (Epay)');
    expect(within(row).getByText('Epay')).toBeTruthy();
    expect(within(row).getByText('Alipay')).toBeTruthy();
    expect(within(row).getByText('WeChat Pay')).toBeTruthy();
    expect(within(row).getByText('1.5%')).toBeTruthy();
    expect(within(row).getByText('Set')).toBeTruthy();
    expect(within(row).getByText('2026-03-02', { exact: false })).toBeTruthy();
    expect(
      within(row).getByRole('switch', { name: 'Enabled Alipay (Epay)' }).getAttribute('aria-checked'),
    ).toBe('true');
    const other = await rowOf('USDT (TRC20)');
    expect(within(other).getByText('USDT (EPUSDT)')).toBeTruthy();
    expect(within(other).getByText('No fee')).toBeTruthy();
    expect(within(other).getByText('5')).toBeTruthy();
    expect(within(other).getByRole('switch').getAttribute('aria-checked')).toBe('false');
  });

  it('adds an Epay gateway with its settings, keys, and its fee in basis points', async () => {
    signedInAs('owner');
    answerGateways();
    answer('POST', '/gateways', ok(epay));
    await renderScreen(<GatewaysPage />);
    fireEvent.click(await screen.findByRole('button', { name: /Add gateway/ }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Epay' }));
    expect(await screen.findByText('Add Epay gateway')).toBeTruthy();
    type('Name for buyers (English)', 'Alipay');
    type('Name for buyers (简体中文)', '支付宝');
    type('Name for buyers (繁體中文)', '支付寶');
    type('Fee', '2.35');
    type('Site URL', 'https://pay.example.com');
    type('Merchant ID (pid)', '1001');
    fireEvent.click(screen.getByLabelText('QR code on the buy page (mapi.php)'));
    type('Merchant key', 'merchant-key-123');
    save();
    expect(await screen.findByText('Done')).toBeTruthy();
    const sent = await requestsTo('POST', '/gateways');
    expect(sent.map((call) => call.body)).toEqual([
      {
        kind: 'epay',
        names: { en: 'Alipay', zh: '支付宝', tw: '支付寶' },
        methods: ['alipay', 'wxpay', 'usdt'],
        position: 0,
        fee_bps: 235,
        enabled: true,
        settings: { url: 'https://pay.example.com', pid: '1001', mode: 'api' },
        keys: { key: 'merchant-key-123' },
      },
    ]);
  });

  it('asks for the keys of a new gateway, and sends nothing without them', async () => {
    signedInAs('owner');
    answerGateways();
    await renderScreen(<GatewaysPage />);
    fireEvent.click(await screen.findByRole('button', { name: /Add gateway/ }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'USDT (EPUSDT)' }));
    for (const language of ['English', '简体中文', '繁體中文']) type(`Name for buyers (${language})`, 'USDT');
    type('Base URL', 'not an address');
    save();
    expect(await screen.findByText('Enter an http:// or https:// address')).toBeTruthy();
    expect(screen.getAllByText('Required')).toHaveLength(1);
    expect(await requestsTo('POST', '/gateways')).toEqual([]);
  });

  it('changes a gateway without its keys when the key field stays empty', async () => {
    signedInAs('finance');
    answerGateways();
    answer('PATCH', '/gateways/:id', ok(epay));
    await renderScreen(<GatewaysPage />);
    const row = await rowOf('Alipay (Epay)');
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    expect(await screen.findByText('Edit Epay gateway')).toBeTruthy();
    const key = screen.getByLabelText('Merchant key') as HTMLInputElement;
    expect(key.value).toBe('');
    expect(key.placeholder).toBe('Keys are set: leave empty to keep them');
    expect((screen.getByLabelText('Fee') as HTMLInputElement).value).toBe('1.50');
    type('Fee', '0.5');
    save();
    expect(await screen.findByText('Done')).toBeTruthy();
    const [sent] = await requestsTo('PATCH', `/gateways/${epay.id}`);
    expect(sent?.body).toEqual({
      names: epay.names,
      methods: ['alipay', 'wxpay'],
      position: 0,
      fee_bps: 50,
      enabled: true,
      settings: { url: 'https://pay.example.com', pid: '1001', mode: 'page' },
    });
  });

  it('shows the server’s refusal of the keys under the key field', async () => {
    signedInAs('finance');
    answerGateways();
    answer(
      'PATCH',
      '/gateways/:id',
      refused(400, 'keys is not valid', { reason: 'field_invalid', field: 'keys' }),
    );
    await renderScreen(<GatewaysPage />);
    fireEvent.click(within(await rowOf('Alipay (Epay)')).getByRole('button', { name: 'Edit' }));
    type('Merchant key', 'another-key-456');
    save();
    const field = screen.getByLabelText('Merchant key').closest('.ant-form-item') as HTMLElement;
    expect(await within(field).findByText('keys is not valid')).toBeTruthy();
    const [sent] = await requestsTo('PATCH', `/gateways/${epay.id}`);
    expect(sent?.body).toMatchObject({ keys: { key: 'another-key-456' } });
  });

  it('turns a gateway off from its switch', async () => {
    signedInAs('owner');
    answerGateways();
    answer('PATCH', '/gateways/:id', ok({ ...epay, enabled: false }));
    await renderScreen(<GatewaysPage />);
    fireEvent.click(within(await rowOf('Alipay (Epay)')).getByRole('switch'));
    await waitFor(async () => {
      const sent = await requestsTo('PATCH', `/gateways/${epay.id}`);
      expect(sent.map((call) => call.body)).toEqual([{ enabled: false }]);
    });
  });

  it('tests a gateway’s keys and says what the gateway answered', async () => {
    signedInAs('finance');
    answerGateways();
    answer('POST', '/gateways/:id/test', ok({ result: 'keys_refused', message: 'KEY校验失败' }));
    await renderScreen(<GatewaysPage />);
    fireEvent.click(within(await rowOf('USDT (TRC20)')).getByRole('button', { name: /Test keys/ }));
    const result = await screen.findByTestId('gateway-test-result');
    expect(result.textContent).toContain('The gateway refused the keys.');
    expect(result.textContent).toContain('The gateway said: KEY校验失败');
    const sent = await requestsTo('POST', `/gateways/${usdt.id}/test`);
    expect(sent.map((call) => call.body)).toEqual([{}]);
  });
});
