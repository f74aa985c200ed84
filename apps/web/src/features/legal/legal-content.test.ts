import { LANGUAGES, type Language } from '@skyway/shared/languages';
import { describe, expect, it } from 'vitest';
import type { LegalSection } from './components/legal-page.tsx';
import { type LegalDocument, legalNamespace } from './documents.ts';

// The shared texts (legal.json) and each document's own (legal-privacy.json…).
const files = import.meta.glob<unknown>('../../locales/*/legal*.json', { eager: true, import: 'default' });
const DOCUMENTS: LegalDocument[] = ['privacy', 'service', 'use'];

/** Every legal file of the language, by namespace. */
function texts(language: Language): Record<string, unknown> {
  const prefix = `../../locales/${language}/`;
  const mine = Object.entries(files).filter(([path]) => path.startsWith(prefix));
  if (mine.length !== DOCUMENTS.length + 1) throw new Error(`legal files missing for ${language}`);
  return Object.fromEntries(
    mine.map(([path, content]) => [path.slice(prefix.length, -'.json'.length), content]),
  );
}

function document(language: Language, name: LegalDocument) {
  return texts(language)[legalNamespace(name)] as { updated: string; sections: LegalSection[] };
}

function section(language: Language, name: LegalDocument, id: string): string {
  const found = document(language, name).sections.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`${language} ${name} has no section ${id}`);
  return [found.heading, ...found.paragraphs, ...(found.items ?? []), ...(found.afterItems ?? [])].join('\n');
}

const ids = (language: Language, name: LegalDocument) =>
  document(language, name).sections.map((candidate) => candidate.id);

// Spec section 1: what the legal text must state, as it reads in each language.
const REQUIRED: Record<Language, [LegalDocument, string, RegExp][]> = {
  en: [
    ['service', 'plans', /monthly, half-year and annual plans/],
    ['service', 'plans', /a month is 31 days, half a year is 183 days and a year is 366 days/],
    ['service', 'fees', /unit price of the chosen plan multiplied by the number of simultaneous connections/],
    ['service', 'fees', /RMB/],
    ['service', 'automatic-renewal', /app-store account renew automatically .* at least 24 hours before/],
    ['service', 'refunds', /Once a plan is active, its fee is not refundable/],
    ['service', 'free-trial', /free trial/],
    ['service', 'inactive-accounts', /not been used for three months.* may be revoked/],
    ['service', 'upgrades-and-downgrades', /upgrade .* takes effect at once/],
    ['service', 'upgrades-and-downgrades', /downgrade .* takes effect when your current access expires/],
    ['privacy', 'retention', /three months/],
    ['use', 'inactive-accounts', /three months/],
  ],
  zh: [
    ['service', 'plans', /月付、半年付和年付套餐/],
    ['service', 'plans', /一个月按 31 天计算，半年按 183 天计算，一年按 366 天计算/],
    ['service', 'fees', /所选套餐的单价乘以您选择的同时连接数/],
    ['service', 'fees', /人民币/],
    [
      'service',
      'automatic-renewal',
      /应用商店账户购买的订阅.*自动续订，除非您在当前周期结束前至少 24 小时取消/,
    ],
    ['service', 'refunds', /套餐一经生效，费用不予退还/],
    ['service', 'free-trial', /免费试用/],
    ['service', 'inactive-accounts', /连续三个月未使用.*可能被注销/],
    ['service', 'upgrades-and-downgrades', /升级.*立即生效/],
    ['service', 'upgrades-and-downgrades', /降级.*在当前服务到期时生效/],
    ['privacy', 'retention', /三个月/],
    ['use', 'inactive-accounts', /三个月/],
  ],
  tw: [
    ['service', 'plans', /月繳、半年繳與年繳方案/],
    ['service', 'plans', /一個月以 31 天計，半年以 183 天計，一年以 366 天計/],
    ['service', 'fees', /所選方案的單價乘以您選擇的同時連線數/],
    ['service', 'fees', /人民幣/],
    [
      'service',
      'automatic-renewal',
      /應用程式商店帳號購買的訂閱.*自動續訂，除非您在目前週期結束前至少 24 小時取消/,
    ],
    ['service', 'refunds', /方案一經生效，費用恕不退還/],
    ['service', 'free-trial', /免費試用/],
    ['service', 'inactive-accounts', /連續三個月未使用.*可能遭到註銷/],
    ['service', 'upgrades-and-downgrades', /升級.*立即生效/],
    ['service', 'upgrades-and-downgrades', /降級.*於目前服務到期時生效/],
    ['privacy', 'retention', /三個月/],
    ['use', 'inactive-accounts', /三個月/],
  ],
};

describe('legal texts', () => {
  describe.each(DOCUMENTS)('%s', (name) => {
    it('has unique kebab-case section ids, the same in every language', () => {
      const english = ids('en', name);
      expect(new Set(english).size).toBe(english.length);
      for (const id of english) expect(id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      for (const language of LANGUAGES) expect(ids(language, name), language).toEqual(english);
    });

    it.each(LANGUAGES)(
      '%s: has a date, a changes section and a contact section naming {{email}}',
      (language) => {
        expect(document(language, name).updated).toBe('2026-11-22');
        expect(ids(language, name)).toContain('changes');
        expect(section(language, name, 'contact')).toContain('{{email}}');
      },
    );
  });

  it.each(LANGUAGES)('%s: states everything spec section 1 asks for', (language) => {
    for (const [name, id, pattern] of REQUIRED[language]) {
      expect(section(language, name, id), `${language} ${name}#${id}`).toMatch(pattern);
    }
  });

  it.each(['zh', 'tw'] as const)('%s: addresses the reader as 您, never 你', (language) => {
    expect(JSON.stringify(texts(language))).not.toContain('你');
  });

  it.each(LANGUAGES)(
    '%s: never hard-codes an e-mail address (it comes from the configuration)',
    (language) => {
      expect(JSON.stringify(texts(language))).not.toMatch(/[\w.+-]+@[\w-]+\.\w+/);
    },
  );
});
