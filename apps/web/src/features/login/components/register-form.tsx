import { useTranslation } from 'react-i18next';
import { openPage } from '../../../lib/page.ts';
import { saveSessionForNextPage } from '../../../lib/session.ts';
import { register } from '../api/register.ts';
import {
  CodeAndPasswordFields,
  type CodeAndPasswordValues,
  useCodeAndPasswordForm,
} from './code-and-password-fields.tsx';
import { ModeForm } from './mode-form.tsx';

interface Props {
  initialEmail: string;
  onEmailChange: (email: string) => void;
  /** From the share link's `?invite_code=`; empty when there was none. */
  inviteCode: string;
}

/** Registration: e-mail, code, password twice; success signs in and opens the console. */
export function RegisterForm({ initialEmail, onEmailChange, inviteCode }: Props) {
  const { t } = useTranslation('login');
  const form = useCodeAndPasswordForm('register', initialEmail);

  async function submit({ email, email_code, password }: CodeAndPasswordValues) {
    const user = await register({
      email: email.trim(),
      email_code: email_code.trim(),
      password,
      invite_code: inviteCode,
    });
    saveSessionForNextPage(user);
    openPage('/buy');
  }

  return (
    <ModeForm
      form={form}
      name="register"
      onEmailChange={onEmailChange}
      submitLabel={t('register.submit')}
      submit={submit}
    >
      <CodeAndPasswordFields
        form={form}
        scene="register"
        passwordLabel={t('fields.password')}
        confirmLabel={t('fields.confirm')}
      />
      {inviteCode && (
        <div className="login-field">
          <div className="login-field__label">{t('fields.inviteCode')}</div>
          <span className="login__invite" data-invite-code={inviteCode}>
            {inviteCode}
          </span>
        </div>
      )}
    </ModeForm>
  );
}
