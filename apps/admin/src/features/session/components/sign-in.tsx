import { Alert, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '@skyway/shared/api-error';
import { useSetSession } from '../../../lib/session.ts';
import { confirmSecondFactor } from '../api/second-factor.ts';
import { signIn } from '../api/sign-in.ts';
import { AuthCard, TotpCodeItem } from './auth-card.tsx';

/** Sign-in: the password, then a code of the authenticator app (or a recovery code). */
export function SignInPage() {
  const { t } = useTranslation(['session', 'common']);
  const navigate = useNavigate();
  const setSession = useSetSession();
  const [step, setStep] = useState<'password' | 'second_factor'>('password');
  const [useRecovery, setUseRecovery] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(work: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : String(caught));
      // An ended half-open session (too many wrong codes, or 5 minutes) starts over.
      if (caught instanceof ApiError && caught.code === 401) setStep('password');
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard>
      {error && <Alert type="error" title={error} style={{ marginBottom: 16 }} />}
      {step === 'password' ? (
        <Form
          layout="vertical"
          requiredMark={false}
          onFinish={(values: { email: string; password: string }) =>
            submit(async () => {
              await signIn(values);
              setStep('second_factor');
            })
          }
        >
          <Form.Item
            name="email"
            label={t('common:email')}
            rules={[{ required: true, type: 'email', message: t('common:required') }]}
          >
            <Input autoComplete="username" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('password')}
            rules={[{ required: true, message: t('common:required') }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('next')}
          </Button>
        </Form>
      ) : (
        <Form
          key={useRecovery ? 'recovery' : 'code'}
          layout="vertical"
          requiredMark={false}
          onFinish={(values: { code: string } | { recovery_code: string }) =>
            submit(async () => {
              const session = await confirmSecondFactor(values);
              setSession(session);
              navigate('/');
            })
          }
        >
          <Typography.Paragraph type="secondary">{t('secondFactorHint')}</Typography.Paragraph>
          {useRecovery ? (
            <Form.Item
              name="recovery_code"
              label={t('recoveryCode')}
              rules={[{ required: true, message: t('common:required') }]}
            >
              <Input autoComplete="off" />
            </Form.Item>
          ) : (
            <TotpCodeItem />
          )}
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('signIn')}
          </Button>
          <Button type="link" block onClick={() => setUseRecovery(!useRecovery)}>
            {useRecovery ? t('useTotpCode') : t('useRecoveryCode')}
          </Button>
        </Form>
      )}
    </AuthCard>
  );
}
