import { LANGUAGES } from '@skyway/shared/languages';
import { describe, expect, it } from 'vitest';
import { type MailTemplate, renderMail, TEMPLATE_PARAMS, TEMPLATES } from './templates.ts';

const site = { siteName: 'Skyway', supportEmail: 'help@skyway.test' };
const sample: Record<string, string | number> = {
  code: '042917',
  minutes: 10,
  new_email: 'new@example.com',
  revoke_date: '2025-03-08',
};
const templates = Object.keys(TEMPLATES) as MailTemplate[];
const paramsFor = (template: MailTemplate) =>
  Object.fromEntries(TEMPLATE_PARAMS[template].map((key) => [key, sample[key] ?? `value-of-${key}`]));

describe('mail templates', () => {
  it('cover the fourteen messages', () => {
    expect(templates.sort()).toEqual(
      [
        'account_exists',
        'code_email',
        'code_forget',
        'code_register',
        'email_changed',
        'inactive_warning',
        'password_changed',
        'staff_invite',
        'staff_alert',
        'staff_digest',
        'payment_confirmed',
        'expiry_reminder',
        'expiry_ended',
        'notice',
        'ticket_reply',
      ].sort(),
    );
  });

  describe.each(templates.flatMap((template) => LANGUAGES.map((language) => [template, language] as const)))(
    '%s in %s',
    (template, language) => {
      const mail = renderMail(template, language, paramsFor(template), site);

      it('has a subject, a text and an HTML part with no placeholder left', () => {
        for (const part of [mail.subject, mail.text, mail.html]) {
          expect(part.trim()).not.toBe('');
          expect(part).not.toMatch(/\{\w*\}?/);
        }
      });

      it('names the site and the support address, and carries every param', () => {
        for (const part of [mail.text, mail.html]) {
          expect(part).toContain('Skyway');
          expect(part).toContain('help@skyway.test');
          for (const value of Object.values(paramsFor(template))) expect(part).toContain(String(value));
        }
        expect(mail.subject).toContain('Skyway');
      });
    },
  );

  it('differ by language, with Taiwan usage in tw', () => {
    const render = (language: 'en' | 'zh' | 'tw') =>
      renderMail('code_register', language, { code: '123456', minutes: 10 }, site);
    expect(render('en').subject).toBe('Your Skyway registration code');
    expect(render('zh').text).toContain('账号');
    expect(render('tw').text).toContain('帳號');
    expect(render('tw').subject).toContain('驗證碼');
    expect(renderMail('email_changed', 'tw', { new_email: 'n@example.com' }, site).subject).toContain(
      '電子郵件',
    );
  });

  it('address the reader as 您 in Chinese, never 你', () => {
    for (const template of templates) {
      for (const language of ['zh', 'tw'] as const) {
        const mail = renderMail(template, language, paramsFor(template), site);
        expect(`${mail.subject}${mail.text}`, `${template} ${language}`).not.toContain('你');
      }
    }
    expect(renderMail('password_changed', 'zh', {}, site).text).toContain('您的 Skyway 账号');
  });

  it('escapes every interpolated value in the HTML, and only there', () => {
    const hostile = '<script>alert("x")</script>&\'';
    const mail = renderMail(
      'email_changed',
      'en',
      { new_email: hostile },
      { siteName: 'A&B <Net>', supportEmail: 'help@skyway.test' },
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<Net>');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
    expect(mail.html).toContain('A&amp;B &lt;Net&gt;');
    expect(mail.text).toContain(hostile);
  });

  it('does not expand a value that looks like a placeholder', () => {
    const mail = renderMail('email_changed', 'en', { new_email: '{support_email}' }, site);
    expect(mail.text).toContain('changed to {support_email}.');
  });

  it('keeps a line break in a value out of the subject', () => {
    const mail = renderMail(
      'account_exists',
      'en',
      {},
      { siteName: 'Sky\r\nBcc: x@evil.test', supportEmail: 's@x.test' },
    );
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });

  it('renders a notice’s Markdown in the HTML part, inert, and keeps it as written in the text part', () => {
    const body = '**Maintenance** tonight.\n\n<img src=x onerror="alert(1)">';
    const mail = renderMail('notice', 'en', { title: 'Tonight', body, unsubscribe_link: 'https://u' }, site);
    expect(mail.subject).toBe('Skyway: Tonight');
    expect(mail.html).toContain('<strong>Maintenance</strong>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror="alert(1)"&gt;');
    expect(mail.text).toContain(body);
  });

  it('refuses to render without a required param', () => {
    expect(() => renderMail('code_forget', 'en', { minutes: 10 }, site)).toThrow(/code_forget needs code/);
  });
});
