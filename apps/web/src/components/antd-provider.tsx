import { use, type ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import { loadAntdLocale } from '../lib/antd-locale.ts';
import { antdTheme } from '../lib/antd-theme.ts';
import { currentLanguage } from '../lib/language.ts';

// antd puts a space between the two characters of a Chinese button label ("登 录"); the site's
// own buttons never do, so neither does antd.
const BUTTON = { autoInsertSpace: false } as const;

/** antd's theme and its locale for the current language; suspends until that locale has loaded. */
export function AntdProvider({ children }: { children: ReactNode }) {
  const locale = use(loadAntdLocale(currentLanguage()));
  return (
    <ConfigProvider locale={locale} theme={antdTheme} button={BUTTON}>
      {children}
    </ConfigProvider>
  );
}
