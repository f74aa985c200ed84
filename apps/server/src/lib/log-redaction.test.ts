import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { logSerializers, redactLinks, redactUrl } from './log-redaction.ts';

describe('redactUrl', () => {
  it('hides the token of every route that carries one in its path, whatever its spelling', () => {
    expect(redactUrl('/s/AbC123/clash?x=1')).toBe('/s/[redacted]?x=1');
    expect(redactUrl('/S/AbC123')).toBe('/S/[redacted]');
    expect(redactUrl('/%73/AbC123')).toBe('/%73/[redacted]');
    expect(redactUrl('/s//AbC123')).toBe('/s/[redacted]');
    expect(redactUrl('/unsubscribe/u1.sig')).toBe('/unsubscribe/[redacted]');
    expect(redactUrl('/admin/setup/t0k3n')).toBe('/admin/setup/[redacted]');
    expect(redactUrl('/admin/api/v1/setup/t0k3n')).toBe('/admin/api/v1/setup/[redacted]');
  });

  it('hides the value of every query parameter named like a secret, and keeps the rest', () => {
    expect(redactUrl('/api/v1/server/UniProxy/user?node_id=3&token=s3cret&node_type=vless')).toBe(
      '/api/v1/server/UniProxy/user?node_id=3&token=[redacted]&node_type=vless',
    );
    expect(redactUrl('/x?TOKEN=a&api_key=b&%74oken=c&session_id=d&order_id=7')).toBe(
      '/x?TOKEN=[redacted]&api_key=[redacted]&%74oken=[redacted]&session_id=[redacted]&order_id=7',
    );
    expect(redactUrl('/download')).toBe('/download');
    expect(redactUrl('/s')).toBe('/s');
  });
});

describe('redactLinks', () => {
  it('hides the tokens of the links in a mail, in any language', () => {
    const text =
      '如不想再收到此类提醒，请退订：https://vpn.example.com/unsubscribe/u1.sig\n' +
      'Set up: https://vpn.example.com/admin/setup/t0k3n\nBuy: https://vpn.example.com/buy';
    expect(redactLinks(text)).toBe(
      '如不想再收到此类提醒，请退订：https://vpn.example.com/unsubscribe/[redacted]\n' +
        'Set up: https://vpn.example.com/admin/setup/[redacted]\nBuy: https://vpn.example.com/buy',
    );
  });
});

describe('the error serializer', () => {
  it('keeps the failed query but not its parameters, nor a signature error’s header and payload', () => {
    const query = logSerializers.err(
      new DrizzleQueryError('update staff set totp_secret = $1', ['TOTPSECRET'], new Error('gone')),
    );
    expect(query.message).toBe('Failed query: update staff set totp_secret = $1');
    expect(JSON.stringify(query)).not.toContain('TOTPSECRET');
    expect(JSON.stringify(query)).toContain('gone');

    const signature = Object.assign(new Error('No signatures found'), {
      header: 't=1,v1=abc',
      payload: '{}',
    });
    expect(logSerializers.err(signature)).not.toHaveProperty('header');
    expect(logSerializers.err(signature)).not.toHaveProperty('payload');
    expect(logSerializers.err('a rejection that is no Error' as unknown as Error)).toBe(
      'a rejection that is no Error',
    );
  });
});
