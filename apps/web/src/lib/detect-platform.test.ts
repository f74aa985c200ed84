import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectPlatform, detectVisitorPlatform } from './detect-platform.ts';

const UA = {
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  windowsFirefox: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  iPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  iPadMobileSite:
    'Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  iPod: 'Mozilla/5.0 (iPod touch; CPU iPhone OS 12_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  wechatAndroid:
    'Mozilla/5.0 (Linux; Android 13; V2227A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MicroMessenger/8.0.47',
  linux:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  chromeOs:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

describe('detectPlatform', () => {
  it.each([
    ['Windows (Chrome)', UA.windowsChrome, 'windows'],
    ['Windows (Firefox)', UA.windowsFirefox, 'windows'],
    ['a Mac', UA.macSafari, 'macos'],
    ['an iPhone', UA.iPhone, 'ios'],
    ['an iPad asking for the mobile site', UA.iPadMobileSite, 'ios'],
    ['an iPod touch', UA.iPod, 'ios'],
    ['Android', UA.android, 'android'],
    ['WeChat on Android', UA.wechatAndroid, 'android'],
    ['Linux', UA.linux, null],
    ['ChromeOS', UA.chromeOs, null],
    ['an empty user agent', '', null],
  ])('reads %s from the user agent', (_name, userAgent, expected) => {
    expect(detectPlatform({ userAgent })).toBe(expected);
  });

  it('takes an iPad that asks for the desktop site (a Mac user agent with a touch screen) for iOS', () => {
    expect(detectPlatform({ userAgent: UA.macSafari, maxTouchPoints: 5 })).toBe('ios');
    expect(detectPlatform({ userAgent: UA.macSafari, maxTouchPoints: 0 })).toBe('macos');
  });

  it.each([
    ['Windows', 'windows'],
    ['macOS', 'macos'],
    ['Android', 'android'],
    ['iOS', 'ios'],
  ])('prefers the client hints platform %s over the user agent', (platform, expected) => {
    expect(detectPlatform({ clientHintsPlatform: platform, userAgent: UA.linux })).toBe(expected);
  });

  it('falls back to the user agent when the client hints name no platform of ours', () => {
    expect(detectPlatform({ clientHintsPlatform: '', userAgent: UA.android })).toBe('android');
    expect(detectPlatform({ clientHintsPlatform: 'Linux', userAgent: UA.linux })).toBeNull();
    expect(detectPlatform({ clientHintsPlatform: 'Chrome OS', userAgent: UA.chromeOs })).toBeNull();
  });
});

describe('detectVisitorPlatform', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reads the browser it runs in', () => {
    vi.stubGlobal('navigator', { userAgent: UA.macSafari, maxTouchPoints: 0 });
    expect(detectVisitorPlatform()).toBe('macos');
    vi.stubGlobal('navigator', {
      userAgent: UA.windowsChrome,
      maxTouchPoints: 0,
      userAgentData: { platform: 'Windows' },
    });
    expect(detectVisitorPlatform()).toBe('windows');
  });
});
