import { useQueryClient } from '@tanstack/react-query';
import { Select } from 'antd';
import { LANGUAGES, type Language } from '@skyway/shared/languages';
import { currentLanguage, LANGUAGE_NAMES, setLanguage } from '../lib/i18n.ts';

/** The language menu, on every screen. */
export function LanguageSelect() {
  const client = useQueryClient();
  return (
    <Select
      aria-label="language"
      value={currentLanguage()}
      style={{ width: 120 }}
      options={LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }))}
      onChange={(language: Language) => {
        setLanguage(language);
        // The server's texts (messages) come in the new language too.
        void client.invalidateQueries();
      }}
    />
  );
}
