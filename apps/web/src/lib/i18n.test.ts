import { describe, expect, it } from 'vitest';
import { i18n } from './i18n.ts';

describe('i18n', () => {
  it('reports a missing key as a console error, which fails browser journeys and tests', () => {
    const reported: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => reported.push(args);
    try {
      // Typed keys reject an unknown one at compile time; this checks what happens at run time.
      expect(i18n.t('common:no.such.key' as 'common:brand')).toBe('no.such.key');
    } finally {
      console.error = original;
    }
    expect(reported).toEqual([['Missing translation: common:no.such.key (en)']]);
  });

  it('does not report a key that exists', () => {
    expect(i18n.t('common:brand')).not.toBe('brand');
  });
});
