import { Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageMenu } from '../components/language-menu.tsx';
import { Logo } from '../components/logo.tsx';
import { PageSpinner } from '../components/page-spinner.tsx';
import { useSession } from '../lib/session.ts';
import { useSiteConf } from '../lib/site-conf.ts';
import './website-layout.css';

const NAV_ITEMS = [
  { to: '/download', label: 'nav.download' },
  { to: '/help', label: 'nav.help' },
  { to: '/privacy', label: 'nav.privacy' },
  { to: '/service', label: 'nav.service' },
  { to: '/use', label: 'nav.use' },
] as const;

const LEGAL_ITEMS = NAV_ITEMS.slice(2);

/** True once the page has scrolled past the element's own height (spec section 2). */
function useScrolledPast(element: RefObject<HTMLElement | null>): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > (element.current?.offsetHeight ?? 0));
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [element]);
  return scrolled;
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        d={open ? 'M6 6l12 12M18 6 6 18' : 'M4 7h16M4 12h16M4 17h16'}
      />
    </svg>
  );
}

/** The public pages' frame; hand-made (no antd) to keep their first load small. */
export function WebsiteLayout() {
  const { t } = useTranslation();
  const { token } = useSession();
  const { data: conf } = useSiteConf();
  const location = useLocation();
  const header = useRef<HTMLElement>(null);
  const scrolled = useScrolledPast(header);
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuPath, setMenuPath] = useState(location.pathname);
  const siteName = conf?.site_name || t('brand');

  // The small-screen menu closes on every navigation.
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setMenuOpen(false);
  }

  const navClass = ({ isActive }: { isActive: boolean }) =>
    isActive ? 'site-nav__link site-nav__link--active' : 'site-nav__link';

  return (
    <div className="site">
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <header
        ref={header}
        className={[
          'site-header',
          scrolled ? 'site-header--scrolled' : '',
          menuOpen ? 'site-header--menu-open' : '',
        ].join(' ')}
      >
        <div className="site-header__inner">
          <Link to="/download" className="site-header__brand">
            <Logo name={siteName} />
          </Link>
          <nav id="site-nav" className="site-nav" aria-label={t('nav.main')}>
            <ul className="site-nav__list">
              {NAV_ITEMS.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} className={navClass}>
                    {t(item.label)}
                  </NavLink>
                </li>
              ))}
            </ul>
            <div className="site-nav__actions">
              {token !== null ? (
                <Link to="/buy" className="btn btn--primary">
                  {t('nav.console')}
                </Link>
              ) : (
                <>
                  <Link to="/login" className="btn btn--ghost">
                    {t('nav.login')}
                  </Link>
                  <Link to="/login?formType=regist" className="btn btn--primary">
                    {t('nav.register')}
                  </Link>
                </>
              )}
            </div>
          </nav>
          <div className="site-header__tools">
            <LanguageMenu />
            <button
              type="button"
              className="site-header__menu-button"
              aria-expanded={menuOpen}
              aria-controls="site-nav"
              aria-label={menuOpen ? t('nav.closeMenu') : t('nav.openMenu')}
              onClick={() => setMenuOpen((open) => !open)}
            >
              <MenuIcon open={menuOpen} />
            </button>
          </div>
        </div>
      </header>
      <main id="main" className="site-main" tabIndex={-1}>
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="site-footer">
        <div className="site-footer__inner">
          <Logo name={siteName} />
          <nav aria-label={t('nav.legal')}>
            <ul className="site-footer__links">
              {LEGAL_ITEMS.map((item) => (
                <li key={item.to}>
                  <Link to={item.to}>{t(item.label)}</Link>
                </li>
              ))}
            </ul>
          </nav>
          <p className="site-footer__note">
            {conf?.support_email && (
              <>
                {t('footer.support')} <a href={`mailto:${conf.support_email}`}>{conf.support_email}</a>
                <br />
              </>
            )}
            {t('footer.rights', { year: new Date().getFullYear(), site: siteName })}
          </p>
        </div>
      </footer>
    </div>
  );
}
