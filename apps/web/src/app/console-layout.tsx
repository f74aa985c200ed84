import { TelegramBinding } from '../features/telegram/components/telegram-binding.tsx';
import { Suspense, useCallback, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MenuOutlined } from '@ant-design/icons';
import { Button, Drawer, Layout, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { AntdProvider } from '../components/antd-provider.tsx';
import { LanguageMenu } from '../components/language-menu.tsx';
import { ChangeEmailDialog } from '../features/account/components/change-email-dialog.tsx';
import { ChangePasswordDialog } from '../features/account/components/change-password-dialog.tsx';
import { UserInfoDialog } from '../features/account/components/user-info-dialog.tsx';
import { UserMenu, type AccountDialog } from '../features/account/components/user-menu.tsx';
import { NoticeBell } from '../features/notices/components/notice-bell.tsx';
import { TrialDialog } from '../features/trial/components/trial-dialog.tsx';
import { TrialStatus } from '../features/trial/components/trial-status.tsx';
import { MOBILE_QUERY, useMediaQuery } from '../lib/use-media-query.ts';
import { useSiteConf } from '../lib/site-conf.ts';
import { useUserInfo } from '../lib/user-info.ts';
import { ConsoleSidePanel } from './console-side-panel.tsx';
import { queryClient } from './query-client.ts';
import { normalizePath } from './route-guard.ts';
import './console-layout.css';

const PAGE_TITLES = {
  '/buy': 'nav.buy',
  '/order': 'nav.order',
  '/devices': 'nav.devices',
  '/invite': 'nav.invite',
  '/nodes': 'nav.nodes',
  '/404': 'nav.notFound',
} as const;

function isTitledPath(path: string): path is keyof typeof PAGE_TITLES {
  return path in PAGE_TITLES;
}

function ConsoleFrame() {
  const { t } = useTranslation();
  const location = useLocation();
  const compact = useMediaQuery(MOBILE_QUERY);
  const { data: conf } = useSiteConf();
  const siteName = conf?.site_name || t('brand');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [drawerKey, setDrawerKey] = useState(location.key);
  const [dialog, setDialog] = useState<AccountDialog | null>(null);
  const [trialRequested, setTrialRequested] = useState(false);

  // Spec section 4: the console refreshes the stored user on load.
  const { data: userInfo } = useUserInfo();
  const pendingConnections =
    userInfo && userInfo.pending_connections !== null
      ? { connections: userInfo.pending_connections, from: userInfo.pending_from }
      : null;

  // Spec section 2: on small screens the menu closes on every route change (and a drawer left open
  // when the window grew past the breakpoint must not pop up again when it shrinks).
  if (drawerKey !== location.key) {
    setDrawerKey(location.key);
    setDrawerOpen(false);
  }
  if (!compact && drawerOpen) setDrawerOpen(false);

  const path = normalizePath(location.pathname);
  const title = isTitledPath(path) ? t(PAGE_TITLES[path]) : '';
  const closeDialog = () => setDialog(null);
  const endTrial = useCallback(() => setTrialRequested(false), []);
  const requestTrial = () => {
    setDialog(null);
    setTrialRequested(true);
  };

  const sidePanel = <ConsoleSidePanel compact={compact} siteName={siteName} onClaimTrial={requestTrial} />;

  return (
    <Layout className="console" hasSider={!compact}>
      {compact ? (
        <Drawer
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          placement="left"
          size={280}
          title={siteName}
          className="console-drawer"
          rootClassName="console-drawer-root"
        >
          {sidePanel}
        </Drawer>
      ) : (
        <Layout.Sider width={240} className="console-sider">
          {sidePanel}
        </Layout.Sider>
      )}
      <Layout className="console-body">
        <Layout.Header className="console-header">
          {compact && (
            <Button
              type="text"
              className="console-header__menu"
              icon={<MenuOutlined />}
              aria-label={t('nav.openMenu')}
              aria-expanded={drawerOpen}
              onClick={() => setDrawerOpen(true)}
            />
          )}
          <h1 className="console-header__title">{title}</h1>
          <div className="console-header__tools">
            {/* Its texts come with the layout (router.tsx); should they lag, the header does not wait. */}
            <Suspense fallback={<span className="notice-bell-placeholder" />}>
              <NoticeBell />
            </Suspense>
            <LanguageMenu />
            <UserMenu onOpenDialog={setDialog} />
          </div>
        </Layout.Header>
        <Layout.Content className="console-content">
          <Suspense
            fallback={
              <div className="console-content__loading">
                <Spin size="large" />
              </div>
            }
          >
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
      <UserInfoDialog
        open={dialog === 'userInfo'}
        onClose={closeDialog}
        trial={<TrialStatus onClaim={requestTrial} />}
        telegram={dialog === 'userInfo' && <TelegramBinding />}
        pending={pendingConnections}
        appStore={userInfo ? { autoRenew: userInfo.auto_renew, periodEnd: userInfo.app_store_expire } : null}
      />
      <ChangePasswordDialog open={dialog === 'changePassword'} onClose={closeDialog} />
      <ChangeEmailDialog open={dialog === 'changeEmail'} onClose={closeDialog} />
      {trialRequested && <TrialDialog onClose={endTrial} />}
    </Layout>
  );
}

/**
 * The signed-in pages' frame, in antd and TanStack Query; loaded on demand so that the public pages
 * carry none of them.
 */
export function ConsoleLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <AntdProvider>
        <ConsoleFrame />
      </AntdProvider>
    </QueryClientProvider>
  );
}
