import type { Language } from '@skyway/shared/languages';
import type { Period } from '@skyway/shared/plans';

const PLAN_NAMES: Record<Language, Record<Period | 'none', string>> = {
  en: { month: 'Monthly', half_year: 'Half-yearly', year: 'Yearly', none: 'Free time' },
  zh: { month: '月付', half_year: '半年付', year: '年付', none: '免费时长' },
  tw: { month: '月付', half_year: '半年付', year: '年付', none: '免費時長' },
};

/** A plan's name in a message to a customer; time without a plan (a trial, a gift) is "free time". */
export function planName(language: Language, period: string | null): string {
  const names = PLAN_NAMES[language];
  return names[(period ?? 'none') as Period | 'none'] ?? names.none;
}
