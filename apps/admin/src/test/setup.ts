import { guardComponentTests } from '@skyway/shared/testing/component-tests';
import { i18n, initI18n, NAMESPACES } from '../lib/i18n.ts';
import { resetNetwork, server } from './network.ts';

// Every feature's texts are in before a screen renders, as the router fetches them with its code.
await initI18n('en');
await i18n.loadNamespaces(NAMESPACES);

// antd measures the window's width for its responsive parts; happy-dom answers no media query.
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }) as MediaQueryList;

guardComponentTests({ server, resetNetwork });
