import type { Download, Platform } from '@skyway/shared/site';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePageMeta } from '../../../lib/page-meta.ts';
import { useSession } from '../../../lib/session.ts';
import { useSiteConf } from '../../../lib/site-conf.ts';
import { PlatformIcon } from './platform-icon.tsx';
import './download-page.css';

// Not imported from the shared package: its module builds zod schemas, which the public entry avoids.
const PLATFORM_ORDER: readonly Platform[] = ['windows', 'macos', 'android', 'ios'];
const FEATURES = ['speed', 'privacy', 'devices'] as const;

function PlatformCard({ platform, download }: { platform: Platform; download: Download | undefined }) {
  const { t } = useTranslation('download');
  const name = t(`platforms.${platform}`);
  return (
    <li className="platform-card">
      <span className="platform-card__icon">
        <PlatformIcon platform={platform} />
      </span>
      <h3 className="platform-card__name">{name}</h3>
      <p className="platform-card__version">
        {download ? t('version', { version: download.version }) : t('comingSoon')}
      </p>
      {download && (
        <a
          className="btn btn--primary platform-card__button"
          href={download.url}
          rel="noopener"
          aria-label={t('downloadFor', { platform: name })}
        >
          {t('download')}
        </a>
      )}
    </li>
  );
}

export function DownloadPage() {
  const { t } = useTranslation('download');
  usePageMeta(t('meta.title'), t('meta.description'));
  const { token } = useSession();
  const { data: conf } = useSiteConf();
  const downloads = new Map(conf?.downloads.map((entry) => [entry.platform, entry]));

  // A button, not an #anchor: a hash change is a navigation, and navigations scroll to the top.
  const showDownloads = () => document.getElementById('downloads')?.scrollIntoView({ behavior: 'smooth' });

  return (
    <div className="download">
      <section className="hero">
        <div className="hero__text">
          <p className="hero__eyebrow">{t('hero.eyebrow')}</p>
          <h1 className="hero__title">{t('hero.title')}</h1>
          <p className="hero__lead">{t('hero.lead')}</p>
          <div className="hero__actions">
            <button type="button" className="btn btn--primary btn--large" onClick={showDownloads}>
              {t('hero.cta')}
            </button>
            {token === null ? (
              <Link to="/login?formType=regist" className="btn btn--ghost btn--large">
                {t('hero.register')}
              </Link>
            ) : (
              <Link to="/buy" className="btn btn--ghost btn--large">
                {t('hero.buy')}
              </Link>
            )}
          </div>
        </div>
        <div className="hero__art" aria-hidden="true">
          <svg viewBox="0 0 320 320">
            <defs>
              <radialGradient id="hero-globe" cx="35%" cy="30%" r="75%">
                <stop offset="0" stopColor="#60a5fa" />
                <stop offset="1" stopColor="#1d4ed8" />
              </radialGradient>
            </defs>
            <circle cx="160" cy="160" r="120" fill="url(#hero-globe)" />
            <g fill="none" stroke="#bfdbfe" strokeOpacity="0.55" strokeWidth="1.5">
              <ellipse cx="160" cy="160" rx="120" ry="44" />
              <ellipse cx="160" cy="160" rx="52" ry="120" />
              <path d="M40 160h240M160 40v240" />
            </g>
            <g fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round">
              <path d="M72 214C120 120 210 96 262 104" strokeDasharray="2 10" />
              <path d="M86 98c60 10 120 60 150 128" strokeDasharray="2 10" />
            </g>
            <g fill="#fff">
              <circle cx="72" cy="214" r="7" />
              <circle cx="262" cy="104" r="7" />
              <circle cx="86" cy="98" r="6" />
              <circle cx="236" cy="226" r="6" />
            </g>
          </svg>
        </div>
      </section>

      <section id="downloads" className="section">
        <h2 className="section__title">{t('platforms.title')}</h2>
        <p className="section__lead">{t('platforms.lead')}</p>
        <ul className="platform-grid">
          {PLATFORM_ORDER.map((platform) => (
            <PlatformCard key={platform} platform={platform} download={downloads.get(platform)} />
          ))}
        </ul>
      </section>

      <section className="section">
        <h2 className="section__title">{t('features.title')}</h2>
        <ul className="feature-grid">
          {FEATURES.map((feature) => (
            <li key={feature} className="feature-card">
              <h3 className="feature-card__title">{t(`features.${feature}.title`)}</h3>
              <p className="feature-card__text">{t(`features.${feature}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
