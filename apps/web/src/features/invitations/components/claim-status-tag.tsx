import { useTranslation } from 'react-i18next';
import { StatusTag } from '../../../components/status-tag.tsx';

/** Whether an invitation's reward has been withdrawn. */
export function ClaimStatusTag({ claimed }: { claimed: boolean }) {
  const { t } = useTranslation('invitations');
  return (
    <StatusTag tone={claimed ? 'done' : 'waiting'}>
      {claimed ? t('status.claimed') : t('status.unclaimed')}
    </StatusTag>
  );
}
