import { StrictMode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { i18n } from '../lib/i18n.ts';
import { AppRoutes } from './router.tsx';

export function App() {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </I18nextProvider>
    </StrictMode>
  );
}
