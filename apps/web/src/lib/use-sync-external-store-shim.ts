// react-i18next still imports `use-sync-external-store/shim`, a stand-in for React versions before
// 18; React 19 has the hook itself. vite.config.ts points the import here, so that the shim's code
// stays out of every page's first load.
export { useSyncExternalStore } from 'react';
