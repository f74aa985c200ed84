import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { initI18n, initialLanguage } from './lib/i18n.ts';

void initI18n(initialLanguage()).then(() => {
  const root = document.getElementById('root');
  if (root) createRoot(root).render(<App />);
});
