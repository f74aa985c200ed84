import { Pagination, Spin, type PaginationProps } from 'antd';
import { formatDateTime } from '@skyway/shared/dates';
import type { InvitedAccount } from '@skyway/shared/invitations';
import { useTranslation } from 'react-i18next';
import { useFormatMinutes } from '../../../lib/durations.ts';
import { ClaimStatusTag } from './claim-status-tag.tsx';
import './invitations.css';

interface Props {
  rows: InvitedAccount[];
  loading: boolean;
  pagination: PaginationProps;
}

/**
 * The invitations list on a phone (issue 12): one card a row, claim status and duration first, so
 * that nothing hides behind a sideways swipe.
 */
export function InvitationCards({ rows, loading, pagination }: Props) {
  const { t } = useTranslation('invitations');
  const formatMinutes = useFormatMinutes();
  return (
    <Spin spinning={loading}>
      <ul className="invitation-cards" aria-label={t('list')}>
        {rows.map((row) => (
          <li key={`${row.account}-${row.complete_time}`} className="invitation-card">
            <dl>
              <div>
                <dt>{t('columns.status')}</dt>
                <dd>
                  <ClaimStatusTag claimed={row.claimed} />
                </dd>
              </div>
              <div>
                <dt>{t('columns.trialMinutes')}</dt>
                <dd className="invitation-card__duration">{formatMinutes(row.trial_minute)}</dd>
              </div>
              <div>
                <dt>{t('columns.account')}</dt>
                <dd>{row.account}</dd>
              </div>
              <div>
                <dt>{t('columns.completeTime')}</dt>
                <dd className="invitation-card__time">{formatDateTime(row.complete_time)}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
      <Pagination {...pagination} size="small" align="center" className="invitation-cards__pages" />
    </Spin>
  );
}
