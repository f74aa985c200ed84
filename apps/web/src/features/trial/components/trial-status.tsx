import { CheckCircleFilled, GiftOutlined } from '@ant-design/icons';
import { Button, Skeleton } from 'antd';
import { formatDateTime } from '@skyway/shared/dates';
import { Trans, useTranslation } from 'react-i18next';
import { useNowSeconds } from '../../../lib/use-now-seconds.ts';
import { useTrialState } from '../hooks/use-trial-state.ts';
import './trial-status.css';

/** Whether the trial's access has ended is a matter of minutes. */
const TICK_MS = 60_000;

/** The place of `<date>…</date>` in a translation: kept on one line, so the panel breaks before it. */
const DATE_TAG = { date: <span className="trial-status__date" /> };

interface Props {
  /** Opens the trial dialog. */
  onClaim: () => void;
  /** The side panel's main action; in a dialog, whose footer holds the main action, a plain button. */
  primary?: boolean;
}

/**
 * The free trial's state (issue 12), shared by the side panel and the user info dialog: the claim
 * button only while the trial can be claimed; once claimed, "Claimed" and when its access ends;
 * closed by the operator, the reason; a placeholder while loading, never a button that does nothing.
 */
export function TrialStatus({ onClaim, primary = false }: Props) {
  const { t } = useTranslation(['trial', 'common']);
  const state = useTrialState();
  const now = useNowSeconds(TICK_MS);

  switch (state.status) {
    case 'loading':
      return (
        <div className="trial-status" role="status">
          <Skeleton.Button active block />
          <span className="visually-hidden">{t('common:loading')}</span>
        </div>
      );
    case 'claimable':
      return (
        <Button type={primary ? 'primary' : 'default'} block icon={<GiftOutlined />} onClick={onClaim}>
          {t('common:actions.claimTrial')}
        </Button>
      );
    case 'claimed': {
      const date = formatDateTime(state.endsAt);
      return (
        <div className="trial-status" data-trial-state="claimed">
          <p className="trial-status__row">
            <span className="trial-status__label">{t('title')}</span>
            <span className="trial-status__claimed">
              <CheckCircleFilled aria-hidden /> {t('state.claimed')}
            </span>
          </p>
          <p className="trial-status__end">
            <Trans
              t={t}
              i18nKey={state.endsAt > now ? 'state.endsAt' : 'state.endedAt'}
              values={{ date }}
              components={DATE_TAG}
            />
          </p>
        </div>
      );
    }
    case 'closed':
      return (
        <p className="trial-status trial-status__closed" data-trial-state="closed">
          {t('state.closed')}
        </p>
      );
    case 'unavailable':
      return null;
  }
}
