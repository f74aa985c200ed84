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

  it('fills placeholders and labels the field', () => {
    expect(translate('zh', 'field_required', { field: 'email_code' })).toBe('请输入验证码');
    expect(translate('en', 'too_many_requests', { retry_after: 30 })).toContain('30 seconds');
    expect(translate('tw', 'field_invalid', { field: 'unknown_field' })).toBe('unknown_field格式不正確');
  });
});
