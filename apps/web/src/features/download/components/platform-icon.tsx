import type { Platform } from '@skyway/shared/site';

const PATHS: Record<Platform, string> = {
  windows:
    'M3 5.5 10.5 4.5v7H3v-6Zm8.5-1.1L21 3v8.5h-9.5V4.4ZM3 12.5h7.5v7L3 18.5v-6Zm8.5 0H21V21l-9.5-1.4v-7.1Z',
  macos:
    'M4 5a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v10H4V5Zm2 0v8h12V5H6Zm-4 12h20v1a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2v-1Zm8 .5v.5h4v-.5h-4Z',
  android:
    'M7 9h10v8a1 1 0 0 1-1 1h-1v3h-2v-3h-2v3H9v-3H8a1 1 0 0 1-1-1V9Zm-3 0h2v6H4V9Zm14 0h2v6h-2V9ZM7.2 8a5 5 0 0 1 2.3-3.6L8.6 3l.8-.5 1 1.5a5 5 0 0 1 3.2 0l1-1.5.8.5-.9 1.4A5 5 0 0 1 16.8 8H7.2Zm2.8-2a.7.7 0 1 0 0 1.4.7.7 0 0 0 0-1.4Zm4 0a.7.7 0 1 0 0 1.4.7.7 0 0 0 0-1.4Z',
  ios: 'M8 2h8a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2Zm0 2v14h8V4H8Zm3 15.5v1h2v-1h-2Z',
};

export function PlatformIcon({ platform }: { platform: Platform }) {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
      <path fill="currentColor" fillRule="evenodd" d={PATHS[platform]} />
    </svg>
  );
}
