import { use, type ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import { loadAntdLocale } from '../lib/antd-locale.ts';
import { antdTheme } from '../lib/antd-theme.ts';
import { currentLanguage } from '../lib/language.ts';

/** antd's theme and its locale for the current language; suspends until that locale has loaded. */
export function AntdProvider({ children }: { children: ReactNode }) {
  const locale = use(loadAntdLocale(currentLanguage()));
  return (
    <ConfigProvider locale={locale} theme={antdTheme}>
      {children}
    </ConfigProvider>
  );
}
