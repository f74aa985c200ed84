import { useEffect, useState } from 'react';
import { GiftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { isSignedIn } from '../../../lib/session.ts';
import { ERROR_SECONDS, MESSAGE_SECONDS, showError, showSuccess } from '../../../lib/toast.ts';
import { useClaimTrial } from '../api/claim-trial.ts';
import { fetchInviteConf } from '../api/invite-conf.ts';

const DIALOG_WIDTH = 400;

/** The server's 409 reason for a second claim (PRODUCT.md section 2). */
const TRIAL_CLAIMED = 'trial_claimed';

function isAlreadyClaimed(error: unknown): error is ApiError {
  if (!(error instanceof ApiError) || error.code !== 409) return false;
  const data = error.data;
  return typeof data === 'object' && data !== null && 'reason' in data && data.reason === TRIAL_CLAIMED;
}

/**
 * Mount it when the user asks for a trial; it fetches the invitation config and appears only when
 * the trial is open (spec section 4), else it calls onClose at once. Unmounting clears it.
 */
export function TrialDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('trial');
  const navigate = useNavigate();
  const [closing, setClosing] = useState(false);
  // gcTime 0: every request reads the config afresh, as an operator may have closed the trial.
  const conf = useQuery({ queryKey: ['invite-conf'], queryFn: fetchInviteConf, staleTime: 0, gcTime: 0 });
  const claim = useClaimTrial();
  const isOpen = conf.data?.open_trial === '1';

  useEffect(() => {
    if (conf.isError) console.warn('Trial: the invitation config could not be read', conf.error);
    if (conf.isError || (conf.isSuccess && !isOpen)) onClose();
  }, [conf.isError, conf.error, conf.isSuccess, isOpen, onClose]);

  async function claimNow() {
    if (!isSignedIn()) {
      // Spec section 4: a signed-out visitor goes to /buy without claiming.
      setClosing(true);
      await navigate('/buy');
      return;
    }
    try {
      const result = await claim.mutateAsync();
      showSuccess(t('claimed', { minutes: result.trial_time }), MESSAGE_SECONDS);
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

  const minutes = conf.data?.trial_minute ?? 0;
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
        <p>{t('body', { minutes, hours: Math.round((minutes / 60) * 10) / 10 })}</p>
      </div>
    </Modal>
  );
}
