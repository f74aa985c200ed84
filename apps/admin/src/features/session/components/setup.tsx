import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Spin, Typography } from 'antd';
import QRCode from 'qrcode';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '@skyway/shared/api-error';
import { finishSetup } from '../api/finish-setup.ts';
import { getSetup } from '../api/get-setup.ts';
import { AuthCard, TotpCodeItem } from './auth-card.tsx';
import { RecoveryCodes } from './recovery-codes.tsx';

/** The one-time set-up link: scan the secret, choose a password, prove the app with a first code. */
export function SetupPage() {
  const { t } = useTranslation(['session', 'common']);
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const info = useQuery({
    queryKey: ['setup', token],
    queryFn: async () => {
      const data = await getSetup(token);
      return { ...data, qr: await QRCode.toDataURL(data.totp_uri, { margin: 1, width: 200 }) };
    },
    staleTime: Infinity,
  });

  if (info.isPending)
    return (
      <AuthCard>
        <Spin />
      </AuthCard>
    );
  if (info.error)
    return (
      <AuthCard>
        <Alert type="error" title={info.error.message} />
      </AuthCard>
    );
  if (codes) {
    return (
      <AuthCard width={480}>
        <Typography.Title level={4}>{t('setupDone')}</Typography.Title>
        <RecoveryCodes codes={codes} />
        <Button type="primary" block onClick={() => navigate('/sign-in')}>
          {t('recoveryCodesSaved')}
        </Button>
      </AuthCard>
    );
  }
  const { email, role, totp_secret: secret, qr } = info.data;
  return (
    <AuthCard width={480}>
      <Typography.Title level={4}>{t('setupTitle')}</Typography.Title>
      <Typography.Paragraph>
        {t('setupIntro', { role: t(`common:role_${role}` as 'common:role_owner') })}
      </Typography.Paragraph>
      <div style={{ textAlign: 'center' }}>
        <img src={qr} alt="TOTP QR" width={200} height={200} />
        <Typography.Paragraph type="secondary">
          {t('setupSecret')}:{' '}
          <Typography.Text code copyable data-testid="totp-secret">
            {secret}
          </Typography.Text>
        </Typography.Paragraph>
      </div>
      {error && <Alert type="error" title={error} style={{ marginBottom: 16 }} />}
      <Form
        layout="vertical"
        requiredMark={false}
        onFinish={async (values: { password: string; code: string }) => {
          setBusy(true);
          setError(null);
          try {
            const reply = await finishSetup(token, values);
            setCodes(reply.recovery_codes);
          } catch (caught) {
            setError(caught instanceof ApiError ? caught.message : String(caught));
          } finally {
            setBusy(false);
          }
        }}
      >
        <Form.Item label={t('common:email')}>
          <Input value={email} disabled autoComplete="username" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('password')}
          rules={[{ required: true, min: 8, message: t('common:required') }]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="again"
          label={t('passwordAgain')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('common:required') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('passwordsDiffer'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <TotpCodeItem />
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t('common:save')}
        </Button>
      </Form>
    </AuthCard>
  );
}
