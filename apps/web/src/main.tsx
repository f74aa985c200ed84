import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import './app/global.css';
import { i18n, initI18n } from './lib/i18n.ts';
import { applyHtmlLang, currentLanguage } from './lib/language.ts';
import { takeFlash } from './lib/storage.ts';
import { ERROR_SECONDS, showError } from './lib/toast.ts';

const language = currentLanguage();
applyHtmlLang(language);
initI18n(language);
document.title = i18n.t('brand');

// A forced sign-out (401) reloads the page; its message is shown now that the reload is done.
const flash = takeFlash();
if (flash) showError(flash, ERROR_SECONDS);

const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
