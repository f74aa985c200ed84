import { describe, expect, it } from 'vitest';
import { REASONS } from '@skyway/shared/envelope';
import { LANGUAGES } from '@skyway/shared/languages';
import { FIELD_LABELS, MESSAGES, SUCCESS_MESSAGES, translate } from './messages.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('server messages', () => {
  it('has every message in every language, with the same placeholders', () => {
    const keys = [...SUCCESS_MESSAGES, ...REASONS] as const;
    for (const key of keys) {
      for (const language of LANGUAGES) {
        const text = MESSAGES[language][key];
        expect(text, `${language}.${key}`).toBeTruthy();
        expect(placeholders(text), `${language}.${key}`).toEqual(placeholders(MESSAGES.en[key]));
      }
    }
    for (const language of LANGUAGES) {
      expect(Object.keys(MESSAGES[language]).sort()).toEqual([...keys].sort());
    }
  });

  it('has the same field labels in every language', () => {
    for (const language of LANGUAGES) {
      expect(Object.keys(FIELD_LABELS[language]).sort()).toEqual(Object.keys(FIELD_LABELS.en).sort());
    }
  });

  it('addresses the customer as 您 in Chinese, never 你', () => {
    for (const language of ['zh', 'tw'] as const) {
      for (const [key, text] of Object.entries(MESSAGES[language])) expect(text, key).not.toContain('你');
    }
    expect(MESSAGES.zh.trial_claimed).toBe('您已领取过免费试用');
  });

  it('points to the spam folder when a code is sent, and to signing in again when a session ended', () => {
    expect(MESSAGES.en.code_sent).toMatch(/spam folder/);
    expect(MESSAGES.zh.code_sent).toContain('垃圾邮件');
    expect(MESSAGES.tw.code_sent).toContain('垃圾郵件');
    expect(MESSAGES.en.session_expired).toBe('Your session has expired; please sign in again');
    expect(MESSAGES.zh.session_expired).toBe('登录已过期，请重新登录');
    expect(MESSAGES.tw.session_expired).toBe('登入已過期，請重新登入');
  });

  it('fills placeholders and labels the field', () => {
    expect(translate('zh', 'field_required', { field: 'email_code' })).toBe('请输入验证码');
    expect(translate('en', 'too_many_requests', { retry_after: 30 })).toContain('30 seconds');
    expect(translate('tw', 'field_invalid', { field: 'unknown_field' })).toBe('unknown_field格式不正確');
  });
});
