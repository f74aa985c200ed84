import { ConfigProvider, message } from 'antd';
import { antdTheme } from './antd-theme.ts';

// Toasts render outside the React tree; this gives them the site's theme (and keeps antd from
// warning that a static function cannot read the theme).
ConfigProvider.config({
  holderRender: (children) => <ConfigProvider theme={antdTheme}>{children}</ConfigProvider>,
});

export { message };
