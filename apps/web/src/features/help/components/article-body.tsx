import { type ComponentType, type MouseEvent, Suspense, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { HELP_DEVICE_MARKER } from '@skyway/shared/help';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageSpinner } from '../../../components/page-spinner.tsx';
import { useSession } from '../../../lib/session.ts';

interface Props {
  /** The article as the server rendered and sanitized it for this reader. */
  html: string;
  /** What fills a device placeholder for a signed-in customer: a picker of their own devices. */
  deviceLinks: ComponentType;
}

function SignInPrompt() {
  const { t } = useTranslation('help');
  return (
    <p className="help-article__sign-in">
      {t('signIn.text')} <Link to="/login">{t('signIn.action')}</Link>
    </p>
  );
}

/** A click on a link to one of the site's own pages stays in the app rather than reloading it. */
function useInAppLinks() {
  const navigate = useNavigate();
  return (event: MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) {
      return;
    }
    const link = (event.target as Element).closest('a');
    const href = link?.getAttribute('href');
    if (!link || !href?.startsWith('/') || link.target) return;
    event.preventDefault();
    void navigate(href);
  };
}

/**
 * The article's HTML, inserted as the server sent it, with each device placeholder filled: the
 * customer's own devices when signed in, a prompt to sign in otherwise.
 */
export function ArticleBody({ html, deviceLinks: DeviceLinks }: Props) {
  const { token } = useSession();
  const body = useRef<HTMLDivElement>(null);
  const [markers, setMarkers] = useState<Element[]>([]);
  const onClick = useInAppLinks();

  useLayoutEffect(() => {
    setMarkers(Array.from(body.current?.querySelectorAll(`[${HELP_DEVICE_MARKER}]`) ?? []));
  }, [html]);

  return (
    <>
      {/* Rendered and sanitized by the server (lib/markdown.ts there). */}
      <div
        ref={body}
        className="help-article__body"
        onClick={onClick}
        dangerouslySetInnerHTML={{ __html: html }}
      />
      {markers.map((marker, index) =>
        createPortal(
          token ? (
            <Suspense fallback={<PageSpinner />}>
              <DeviceLinks />
            </Suspense>
          ) : (
            <SignInPrompt />
          ),
          marker,
          String(index),
        ),
      )}
    </>
  );
}
