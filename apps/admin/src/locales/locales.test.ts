import { describeTranslations } from '@skyway/shared/testing/translations';

describeTranslations(import.meta.glob<unknown>('./*/*.json', { eager: true, import: 'default' }), {
  formalChinese: false,
});
