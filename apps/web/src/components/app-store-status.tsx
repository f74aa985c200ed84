import { useId } from 'react';
import { AppleOutlined } from '@ant-design/icons';
import { formatDateTime } from '@skyway/shared/dates';
import { useTranslation } from 'react-i18next';
import { useNowSeconds } from '../lib/use-now-seconds.ts';
import './app-store-status.css';

/** Whether the period has ended is a matter of minutes. */
const TICK_MS = 60_000;

interface Props {
  /**
   * The end of the store's current period (`app_store_expire`, unix seconds): the renewal date while
   * auto-renew is on. Not `expire_user`, which trial, invitation and card time may carry further.
   */
  expireAt: number;
  autoRenew: boolean;
  /** `h2` in a page's card; a paragraph inside a dialog, whose title is the heading. */
  headingLevel?: 'h2' | 'p';
  /** On /buy: card time is added after the app-store period. */
  cardNote?: boolean;
}

/**
 * An app-store subscriber's state (issue 7): subscribed through the app store, auto-renew on or off
 * with the date it renews or ends on, and how to cancel (on the device, 24 hours before the end).
 * Shared by the user info dialog and /buy; its texts are the `app-store` namespace.
 */
export function AppStoreStatus({ expireAt, autoRenew, headingLevel = 'p', cardNote = false }: Props) {
  const { t } = useTranslation('app-store');
  const titleId = useId();
  const now = useNowSeconds(TICK_MS);
  // The server always sets an expiry with the type; without one there is no date to speak of.
  if (!expireAt) return null;

  const date = formatDateTime(expireAt);
  const ended = expireAt <= now;
  let renewal: string;
  if (autoRenew) renewal = ended ? t('renewalDue', { date }) : t('renewsOn', { date });
  else renewal = ended ? t('endedOn', { date }) : t('endsOn', { date });
  const Heading = headingLevel;

  return (
    <section className="app-store-status" aria-labelledby={titleId} data-auto-renew={autoRenew}>
      <Heading id={titleId} className="app-store-status__title">
        <AppleOutlined aria-hidden /> {t('title')}
      </Heading>
      <p className="app-store-status__renewal">{renewal}</p>
      {/* Turned off, there is nothing left to cancel. */}
      {autoRenew && (
        <p className="app-store-status__hint">{ended ? t('cancelNow') : t('cancel', { date })}</p>
      )}
      {cardNote && !ended && (
        <p className="app-store-status__hint">
          {autoRenew ? t('cardAfterRenewing', { date }) : t('cardAfter', { date })}
        </p>
      )}
    </section>
  );
}
