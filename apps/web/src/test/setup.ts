import { guardComponentTests } from '@skyway/shared/testing/component-tests';
import { initI18n } from '../lib/i18n.ts';
import { resetNetwork, server } from './network.ts';

await initI18n('en');

guardComponentTests({ server, resetNetwork }, () => {
  sessionStorage.clear();
  document.head.querySelectorAll('meta[name="signature-secret"]').forEach((meta) => meta.remove());
});
