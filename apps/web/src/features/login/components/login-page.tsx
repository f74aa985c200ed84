import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { usePageMeta } from '../../../lib/page-meta.ts';
import { ForgotPasswordForm } from './forgot-password-form.tsx';
import { LoginForm } from './login-form.tsx';
import { RegisterForm } from './register-form.tsx';
import './login-page.css';

export type LoginMode = 'login' | 'register' | 'forgot';

/**
 * `?formType=regist` opens registration (spec section 2). The forgotten-password form is a mode of
 * this page too, `?formType=forget`, so that the browser's back button leaves it.
 */
export function loginMode(params: URLSearchParams): LoginMode {
  const formType = params.get('formType');
  if (formType === 'regist') return 'register';
  if (formType === 'forget') return 'forgot';
  return 'login';
}

/** Sign-in, registration and the password reset, hand-made (no antd) like the other public pages. */
export function LoginPage() {
  const { t } = useTranslation('login');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const mode = loginMode(params);
  // Spec section 3: the invite code is held in state, empty unless the share link carried one; it
  // survives switching between the modes, whose links do not repeat it.
  const [inviteCode] = useState(() => params.get('invite_code')?.trim() ?? '');
  // The address typed in one mode is kept for the next, e.g. after a reset for signing in.
  const [email, setEmail] = useState('');
  const title = t(`${mode}.title`);
  usePageMeta(title, t(`${mode}.description`));

  return (
    <div className="login">
      <div className="login__card" data-mode={mode}>
        <h1 className="login__title">{title}</h1>
        {mode === 'login' && (
          <LoginForm
            key={mode}
            initialEmail={email}
            onEmailChange={setEmail}
            onForgotPassword={() => void navigate('/login?formType=forget')}
          />
        )}
        {mode === 'register' && (
          <RegisterForm key={mode} initialEmail={email} onEmailChange={setEmail} inviteCode={inviteCode} />
        )}
        {mode === 'forgot' && (
          <ForgotPasswordForm
            key={mode}
            initialEmail={email}
            onEmailChange={setEmail}
            onDone={(address) => {
              setEmail(address);
              void navigate('/login');
            }}
          />
        )}
        <p className="login__switch">
          {mode === 'login' ? (
            <Link to="/login?formType=regist">{t('login.toRegister')}</Link>
          ) : (
            <Link to="/login">{t(`${mode}.toLogin`)}</Link>
          )}
        </p>
      </div>
    </div>
  );
}
