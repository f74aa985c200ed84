import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { preloadPage } from './app/router.tsx';
import './app/global.css';
import { i18n, initI18n } from './lib/i18n.ts';
import { applyHtmlLang, currentLanguage } from './lib/language.ts';
import { getSession } from './lib/session.ts';
import { takeFlash } from './lib/storage.ts';
import { ERROR_SECONDS, showError } from './lib/toast.ts';

const language = currentLanguage();
applyHtmlLang(language);
// The common texts and the page's own code and texts download side by side; the first render
// needs them all. (No top-level await: pages' chunks import from this one.)
const i18nReady = initI18n(language);
preloadPage(window.location.pathname, getSession().token !== null);

void i18nReady.then(() => {
  document.title = i18n.t('brand');

  // A forced sign-out (401) reloads the page; its message is shown now that the reload is done.
  const flash = takeFlash();
  if (flash) showError(flash, ERROR_SECONDS);

  const root = document.getElementById('root');
  if (root) createRoot(root).render(<App />);
});
