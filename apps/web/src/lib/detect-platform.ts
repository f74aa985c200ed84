import type { Platform } from '@skyway/shared/site';

/** What the browser tells about the device it runs on. */
export interface DeviceHints {
  /** `navigator.userAgentData.platform` (User-Agent Client Hints), where the browser has it. */
  clientHintsPlatform?: string | undefined;
  userAgent?: string | undefined;
  maxTouchPoints?: number | undefined;
}

const CLIENT_HINTS_PLATFORMS: Record<string, Platform> = {
  windows: 'windows',
  macos: 'macos',
  android: 'android',
  ios: 'ios',
};

/** The app platform for the visitor's device, or null when it is none of ours (Linux, ChromeOS…). */
export function detectPlatform({
  clientHintsPlatform,
  userAgent = '',
  maxTouchPoints = 0,
}: DeviceHints): Platform | null {
  const hinted = CLIENT_HINTS_PLATFORMS[clientHintsPlatform?.trim().toLowerCase() ?? ''];
  if (hinted) return hinted;

  if (/\b(iPhone|iPad|iPod)\b/i.test(userAgent)) return 'ios';
  if (/\bAndroid\b/i.test(userAgent)) return 'android';
  if (/\bWindows\b/i.test(userAgent)) return 'windows';
  // iPadOS asks for desktop sites with a Mac user agent; only its touch screen gives it away.
  if (/\b(Macintosh|Mac OS X)\b/i.test(userAgent)) return maxTouchPoints > 1 ? 'ios' : 'macos';
  return null;
}

interface NavigatorWithClientHints extends Navigator {
  userAgentData?: { platform?: string };
}

/** detectPlatform() for the browser this page runs in. */
export function detectVisitorPlatform(): Platform | null {
  if (typeof navigator === 'undefined') return null;
  const nav = navigator as NavigatorWithClientHints;
  return detectPlatform({
    clientHintsPlatform: nav.userAgentData?.platform,
    userAgent: nav.userAgent,
    maxTouchPoints: nav.maxTouchPoints,
  });
}
