import { PLATFORMS, type Download, type Platform } from '@skyway/shared/site';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/page-meta.ts';
import { useSession } from '../../../lib/session.ts';
import { useSiteConf } from '../../../lib/site-conf.ts';
import { detectVisitorPlatform } from '../../../lib/detect-platform.ts';
import { NextStepLink } from './next-step-link.tsx';
import { NoticesSlot } from './notices-slot.tsx';
import { PlatformIcon } from './platform-icon.tsx';
import { PricingSlot } from './pricing-slot.tsx';
import './download-page.css';

const FEATURES = ['speed', 'privacy', 'devices'] as const;

/** The visitor's own platform first, the others in their usual order. */
function orderPlatforms(own: Platform | null): Platform[] {
  return own ? [own, ...PLATFORMS.filter((platform) => platform !== own)] : [...PLATFORMS];
}

function DownloadIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M12 4v11m-5-5 5 5 5-5M5 20h14"
      />
    </svg>
  );
}

interface PlatformCardProps {
  platform: Platform;
  download: Download | undefined;
  own: boolean;
  /** A primary button; the others are outlined once the visitor's own platform stands out. */
  primary: boolean;
}

function PlatformCard({ platform, download, own, primary }: PlatformCardProps) {
  const { t } = useTranslation('download');
  const name = t(`platforms.${platform}`);
  const className = [
    'platform-card',
    own ? 'platform-card--own' : '',
    download ? '' : 'platform-card--unavailable',
  ].join(' ');
  return (
    <li className={className}>
      <span className="platform-card__icon">
        <PlatformIcon platform={platform} />
      </span>
      <div className="platform-card__title">
        <h3 className="platform-card__name">{name}</h3>
        {own && <span className="platform-card__badge">{t('yourDevice')}</span>}
      </div>
      <p className="platform-card__version">
        {download ? t('version', { version: download.version }) : t('comingSoonHint')}
      </p>
      {download ? (
        <a
          className={`btn ${primary ? 'btn--primary' : 'btn--ghost'} platform-card__button`}
          href={download.url}
          rel="noopener"
          aria-label={t('downloadFor', { platform: name })}
        >
          <DownloadIcon />
          {t('download')}
        </a>
      ) : (
        <span className="platform-card__soon">{t('comingSoon')}</span>
      )}
    </li>
  );
}

export function DownloadPage() {
  const { t } = useTranslation(['download', 'common']);
  const { token } = useSession();
  const { data: conf } = useSiteConf();
  const site = conf?.site_name || t('common:brand');
  usePageMeta(t('meta.title'), t('meta.description', { site }));
  const [ownPlatform] = useState(detectVisitorPlatform);
  const downloads = new Map(conf?.downloads.map((entry) => [entry.platform, entry]));
  const ownDownload = ownPlatform ? downloads.get(ownPlatform) : undefined;
  const signedIn = token !== null;

  // A button, not an #anchor: a hash change is a navigation, and navigations scroll to the top.
  const showDownloads = () => document.getElementById('downloads')?.scrollIntoView({ behavior: 'smooth' });

  return (
    <div className="download">
      <NoticesSlot />
      <section className="hero">
        <div className="hero__text">
          <p className="hero__eyebrow">{t('hero.eyebrow')}</p>
          <h1 className="hero__title">{t('hero.title')}</h1>
          <p className="hero__lead">{t('hero.lead')}</p>
          <div className="hero__actions">
            {ownPlatform && ownDownload ? (
              <a className="btn btn--primary btn--large" href={ownDownload.url} rel="noopener">
                <DownloadIcon />
                {t('downloadFor', { platform: t(`platforms.${ownPlatform}`) })}
              </a>
            ) : (
              <button type="button" className="btn btn--primary btn--large" onClick={showDownloads}>
                {t('hero.cta')}
              </button>
            )}
            <NextStepLink signedIn={signedIn} className="btn btn--ghost btn--large" />
          </div>
          {ownDownload && (
            <p className="hero__note">
              {t('version', { version: ownDownload.version })}
              <span aria-hidden="true"> · </span>
              <button type="button" className="link-button" onClick={showDownloads}>
                {t('allPlatforms')}
              </button>
            </p>
          )}
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
          {orderPlatforms(ownPlatform).map((platform) => (
            <PlatformCard
              key={platform}
              platform={platform}
              download={downloads.get(platform)}
              own={platform === ownPlatform}
              primary={ownPlatform === null || platform === ownPlatform}
            />
          ))}
        </ul>
      </section>

      <PricingSlot signedIn={signedIn} />

      <section className="section">
        <h2 className="section__title">{t('features.title', { site })}</h2>
        <ul className="feature-grid">
          {FEATURES.map((feature) => (
            <li key={feature} className="feature-card">
              <h3 className="feature-card__title">{t(`features.${feature}.title`)}</h3>
              <p className="feature-card__text">{t(`features.${feature}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="cta">
        <div className="cta__text">
          <h2 className="cta__title">{signedIn ? t('cta.consoleTitle') : t('cta.title')}</h2>
          <p className="cta__lead">{signedIn ? t('cta.consoleText') : t('cta.text')}</p>
        </div>
        <NextStepLink signedIn={signedIn} className="btn btn--large cta__button" />
      </section>
    </div>
  );
}
