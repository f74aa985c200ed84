import { Alert, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, ApiError } from '../api.ts';
import { type StaffSession, useSetSession } from '../session.ts';
import { AuthCard, TotpCodeItem } from './auth-card.tsx';

/** Sign-in: the password, then a code of the authenticator app (or a recovery code). */
export function SignInPage() {
  const { t } = useTranslation();
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
      if (caught instanceof ApiError && caught.status === 401) setStep('password');
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
              await api('POST', '/session', values);
              setStep('second_factor');
            })
          }
        >
          <Form.Item
            name="email"
            label={t('email')}
            rules={[{ required: true, type: 'email', message: t('required') }]}
          >
            <Input autoComplete="username" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('password')}
            rules={[{ required: true, message: t('required') }]}
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
          onFinish={(values: { code?: string; recovery_code?: string }) =>
            submit(async () => {
              const session = await api<StaffSession>('POST', '/session/second-factor', values);
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
              rules={[{ required: true, message: t('required') }]}
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
