import {
  CustomerServiceOutlined,
  CloudServerOutlined,
  HomeOutlined,
  MobileOutlined,
  ShoppingCartOutlined,
  TeamOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Badge, Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { LinkButton } from '../components/link-button.tsx';
import { Logo } from '../components/logo.tsx';
import { SubscriptionTag } from '../features/account/components/subscription-tag.tsx';
import { RedeemButton } from '../features/redeem/components/redeem-button.tsx';
import { useTickets } from '../features/support/api/tickets.ts';
import { TrialStatus } from '../features/trial/components/trial-status.tsx';
import { useTrialState } from '../features/trial/hooks/use-trial-state.ts';
import { formatExpiry } from '../lib/dates.ts';
import { useSession } from '../lib/session.ts';
import { useNowSeconds } from '../lib/use-now-seconds.ts';
import { normalizePath } from './route-guard.ts';

export const CONSOLE_PAGES = [
  { path: '/buy', label: 'nav.buy', icon: <ShoppingCartOutlined /> },
  { path: '/order', label: 'nav.order', icon: <UnorderedListOutlined /> },
  { path: '/devices', label: 'nav.devices', icon: <MobileOutlined /> },
  { path: '/invite', label: 'nav.invite', icon: <TeamOutlined /> },
  { path: '/nodes', label: 'nav.nodes', icon: <CloudServerOutlined /> },
  { path: '/support', label: 'nav.support', icon: <CustomerServiceOutlined /> },
] as const;

/** Whether the access has ended is a matter of minutes. */
const TICK_MS = 60_000;

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
  const trial = useTrialState();
  const now = useNowSeconds(TICK_MS);
  const path = normalizePath(location.pathname);
  // Tickets with a staff reply not yet read: a mark beside Support.
  const unreadTickets = useTickets({ background: true }).data?.unread ?? 0;

  const pages = compact
    ? [{ path: '/', label: 'nav.home', icon: <HomeOutlined /> } as const, ...CONSOLE_PAGES]
    : CONSOLE_PAGES;
  const items: MenuProps['items'] = pages.map((page) => ({
    key: page.path,
    icon: page.icon,
    label: (
      <Link to={page.path}>
        {page.path === '/support' && unreadTickets > 0 ? (
          <Badge count={unreadTickets} size="small" offset={[10, 0]}>
            {t(page.label)}
          </Badge>
        ) : (
          t(page.label)
        )}
      </Link>
    ),
  }));

  // Issue 12: without access the panel offers a next step, the trial while it can be claimed (its
  // button), else the plans; /buy shows the plans itself.
  const hasAccess = (user?.expire_user ?? 0) > now;
  const offerPlans =
    !hasAccess && path !== '/buy' && trial.status !== 'claimable' && trial.status !== 'loading';

  return (
    <div className="console-side">
      {!compact && (
        <Link to="/download" className="console-side__brand">
          <Logo name={siteName} />
        </Link>
      )}
      <nav aria-label={t('nav.consoleMenu')} className="console-side__nav">
        <Menu mode="inline" selectedKeys={[path]} items={items} />
      </nav>
      <section className="console-side__status" aria-label={t('nav.subscription')}>
        <div className="console-side__row">
          <span className="console-side__label">{t('expiry.label')}</span>
          <SubscriptionTag type={user?.subscribe_type} />
        </div>
        <div className="console-side__expiry" data-testid="expiry">
          {formatExpiry(user?.expire_user) ?? t('expiry.none')}
        </div>
        <TrialStatus onClaim={onClaimTrial} primary />
        <RedeemButton />
        {offerPlans && (
          <LinkButton type="primary" block icon={<ShoppingCartOutlined />} to="/buy">
            {t('actions.seePlans')}
          </LinkButton>
        )}
      </section>
    </div>
  );
}
