import {
  GiftOutlined,
  HomeOutlined,
  ShoppingCartOutlined,
  TeamOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Button, Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { Logo } from '../components/logo.tsx';
import { SubscriptionTag } from '../features/account/components/subscription-tag.tsx';
import { formatExpiry } from '../lib/dates.ts';
import { useSession } from '../lib/session.ts';
import { normalizePath } from './route-guard.ts';

export const CONSOLE_PAGES = [
  { path: '/buy', label: 'nav.buy', icon: <ShoppingCartOutlined /> },
  { path: '/order', label: 'nav.order', icon: <UnorderedListOutlined /> },
  { path: '/invite', label: 'nav.invite', icon: <TeamOutlined /> },
] as const;

interface Props {
  /** On small screens the panel is a drawer that also carries Home (the spec's small-screen menu). */
  compact: boolean;
  siteName: string;
  onClaimTrial: () => void;
}

export function ConsoleSidePanel({ compact, siteName, onClaimTrial }: Props) {
  const { t } = useTranslation();
  const { user } = useSession();
  const location = useLocation();

  const pages = compact
    ? [{ path: '/', label: 'nav.home', icon: <HomeOutlined /> } as const, ...CONSOLE_PAGES]
    : CONSOLE_PAGES;
  const items: MenuProps['items'] = pages.map((page) => ({
    key: page.path,
    icon: page.icon,
    label: <Link to={page.path}>{t(page.label)}</Link>,
  }));

  return (
    <div className="console-side">
      {!compact && (
        <Link to="/download" className="console-side__brand">
          <Logo name={siteName} />
        </Link>
      )}
      <nav aria-label={t('nav.consoleMenu')} className="console-side__nav">
        <Menu mode="inline" selectedKeys={[normalizePath(location.pathname)]} items={items} />
      </nav>
      <section className="console-side__status" aria-label={t('nav.subscription')}>
        <div className="console-side__row">
          <span className="console-side__label">{t('expiry.label')}</span>
          <SubscriptionTag type={user?.subscribe_type} />
        </div>
        <div className="console-side__expiry" data-testid="expiry">
          {formatExpiry(user?.expire_user) ?? t('expiry.none')}
        </div>
        <Button type="primary" block icon={<GiftOutlined />} onClick={onClaimTrial}>
          {t('actions.claimTrial')}
        </Button>
      </section>
    </div>
  );
}
