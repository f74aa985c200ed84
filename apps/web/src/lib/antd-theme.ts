import type { ThemeConfig } from 'antd';

/** The brand colour; the hand-made website CSS uses the same value as --brand. */
export const BRAND_COLOR = '#2563eb';

export const antdTheme: ThemeConfig = {
  token: {
    colorPrimary: BRAND_COLOR,
    colorLink: BRAND_COLOR,
    borderRadius: 8,
    // antd's 45 % black (hints, descriptions' labels, empty states) is below the 4.5:1 of WCAG AA on
    // the console's light backgrounds; this slate is 5:1 on all of them.
    colorTextDescription: '#5f6b7a',
    colorTextTertiary: '#5f6b7a',
    // The website's stack (global.css), which picks Traditional Chinese fonts for zh-TW.
    fontFamily: 'var(--font)',
  },
  components: {
    Layout: { headerBg: '#ffffff', siderBg: '#ffffff', bodyBg: '#f5f7fb', headerPadding: '0 24px' },
  },
};
