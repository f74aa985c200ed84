import { useState } from 'react';
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { AntdProvider } from '../../../components/antd-provider.tsx';
import { usePageMeta } from '../../../lib/page-meta.ts';
import './login-page.css';

/** `?formType=regist` opens registration (spec section 2). */
export function loginMode(params: URLSearchParams): 'login' | 'register' {
  return params.get('formType') === 'regist' ? 'register' : 'login';
}

function LoginCard() {
  const { t } = useTranslation('login');
  const [params] = useSearchParams();
  const mode = loginMode(params);
  // Spec section 3: the invite code is held in state, empty unless the share link carried one; it
  // survives switching between the two modes, whose links do not repeat it.
  const [inviteCode] = useState(() => params.get('invite_code') ?? '');
  const title = mode === 'register' ? t('register.title') : t('login.title');
  usePageMeta(title, mode === 'register' ? t('register.description') : t('login.description'));

  return (
    <div className="login">
      <Card className="login__card" data-mode={mode}>
        <Typography.Title level={1} className="login__title">
          {title}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('pending')}</Typography.Paragraph>
        {mode === 'register' && inviteCode && (
          <Typography.Paragraph className="login__invite">
            {t('register.inviteCode')} <Typography.Text code>{inviteCode}</Typography.Text>
          </Typography.Paragraph>
        )}
        <Typography.Paragraph className="login__switch">
          {mode === 'register' ? (
            <Link to="/login">{t('register.toLogin')}</Link>
          ) : (
            <Link to="/login?formType=regist">{t('login.toRegister')}</Link>
          )}
        </Typography.Paragraph>
      </Card>
    </div>
  );
}

export function LoginPage() {
  return (
    <AntdProvider>
      <LoginCard />
    </AntdProvider>
  );
}
