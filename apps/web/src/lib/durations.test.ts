import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { splitMinutes, useFormatMinutes } from './durations.ts';
import { i18n } from './i18n.ts';

describe('splitMinutes', () => {
  it('counts whole days, then hours, then minutes', () => {
    expect(splitMinutes(1440)).toEqual({ days: 1, hours: 0, minutes: 0 });
    expect(splitMinutes(2190)).toEqual({ days: 1, hours: 12, minutes: 30 });
    expect(splitMinutes(59)).toEqual({ days: 0, hours: 0, minutes: 59 });
  });
});

describe('useFormatMinutes', () => {
  const format = (minutes: number) => renderHook(() => useFormatMinutes()).result.current(minutes);

  it('says days and hours in English, singular and plural', async () => {
    await i18n.changeLanguage('en');
    expect(format(1440)).toBe('1 day');
    expect(format(2 * 1440 + 60)).toBe('2 days 1 hour');
    expect(format(90)).toBe('1 hour 30 minutes');
    expect(format(0)).toBe('0 minutes');
  });

  it('says them in Chinese, simplified and traditional', async () => {
    await i18n.changeLanguage('zh');
    expect(format(1440)).toBe('1 天');
    expect(format(2160)).toBe('1 天 12 小时');
    await i18n.changeLanguage('tw');
    expect(format(2160)).toBe('1 天 12 小時');
    expect(format(30)).toBe('30 分鐘');
  });
});
