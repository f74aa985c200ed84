import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import zhTW from 'antd/locale/zh_TW';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { currentLanguage } from '../lib/i18n.ts';
import { newQueryClient } from './query-client.ts';
import { router } from './router.tsx';

const queryClient = newQueryClient();

const LOCALES = { en: enUS, zh: zhCN, tw: zhTW };

function Localized() {
  // Re-rendered on a change of language.
  useTranslation('common');
  return (
    <ConfigProvider locale={LOCALES[currentLanguage()]} theme={{ token: { colorPrimary: '#1677ff' } }}>
      <AntdApp>
        <RouterProvider router={router} />
      </AntdApp>
    </ConfigProvider>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Localized />
    </QueryClientProvider>
  );
}
