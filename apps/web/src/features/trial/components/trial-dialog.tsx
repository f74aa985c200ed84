import { useEffect, useState } from 'react';
import { GiftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Modal } from 'antd';
import { DIALOG_WIDTH } from '../../../components/dialog-width.ts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useFormatMinutes } from '../../../lib/durations.ts';
import { fetchInviteConf } from '../../../lib/invite-conf.ts';
import { INVITE_CONF_QUERY_KEY } from '../../../lib/use-invite-conf.ts';
import { isSignedIn } from '../../../lib/session.ts';
import { ERROR_SECONDS, MESSAGE_SECONDS, showError, showSuccess } from '../../../lib/toast.ts';
import { isAlreadyClaimed, useClaimTrial } from '../api/claim-trial.ts';

/**
 * Mount it when the user asks for a trial; it fetches the invitation config and appears only when
 * the trial is open (spec section 4), else it calls onClose at once. Unmounting clears it.
 */
export function TrialDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('trial');
  const navigate = useNavigate();
  const formatMinutes = useFormatMinutes();
  const [closing, setClosing] = useState(false);
  // Every request reads the config afresh, as an operator may have closed the trial: a copy the
  // trial's state display cached under the same key does not count until this read has answered.
  const conf = useQuery({ queryKey: INVITE_CONF_QUERY_KEY, queryFn: fetchInviteConf, staleTime: 0 });
  const answered = conf.isFetchedAfterMount && !conf.isFetching;
  const isOpen = answered && conf.isSuccess && conf.data.open_trial === '1';
  const claim = useClaimTrial();

  useEffect(() => {
    if (!answered) return;
    if (conf.isError) console.warn('Trial: the invitation config could not be read', conf.error);
    if (!isOpen) onClose();
  }, [answered, conf.isError, conf.error, isOpen, onClose]);

  async function claimNow() {
    if (!isSignedIn()) {
      // Spec section 4: a signed-out visitor goes to /buy without claiming.
      setClosing(true);
      await navigate('/buy');
      return;
    }
    try {
      const result = await claim.mutateAsync();
      showSuccess(t('claimed', { duration: formatMinutes(result.trial_time) }), MESSAGE_SECONDS);
      setClosing(true);
      await navigate('/buy');
    } catch (error) {
      console.warn('Trial: the claim failed', error);
      // The one failure the user is told about (README "Trial dialog"): the server's localized
      // "already claimed"; there is nothing left to claim, so the dialog closes.
      if (isAlreadyClaimed(error)) {
        showError(error.message, ERROR_SECONDS);
        setClosing(true);
      }
    }
  }

  return (
    <Modal
      open={isOpen && !closing}
      width={DIALOG_WIDTH}
      centered
      title={t('title')}
      onCancel={() => setClosing(true)}
      afterClose={onClose}
      footer={[
        <Button key="later" onClick={() => setClosing(true)}>
          {t('notNow')}
        </Button>,
        <Button key="claim" type="primary" loading={claim.isPending} onClick={() => void claimNow()}>
          {t('claimNow')}
        </Button>,
      ]}
    >
      <div className="trial-dialog">
        <GiftOutlined className="trial-dialog__icon" />
        <p>{t('body', { duration: formatMinutes(conf.data?.trial_minute ?? 0) })}</p>
      </div>
    </Modal>
  );
}
