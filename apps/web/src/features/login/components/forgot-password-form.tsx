import { useTranslation } from 'react-i18next';
import { MESSAGE_SECONDS, showSuccess } from '../../../lib/toast.ts';
import { resetPassword } from '../api/reset-password.ts';
import {
  CodeAndPasswordFields,
  type CodeAndPasswordValues,
  useCodeAndPasswordForm,
} from './code-and-password-fields.tsx';
import { ModeForm } from './mode-form.tsx';

interface Props {
  initialEmail: string;
  onEmailChange: (email: string) => void;
  /** After the reset: back to sign-in with this address filled in. */
  onDone: (email: string) => void;
}

/** Forgotten password: e-mail, code, new password twice. */
export function ForgotPasswordForm({ initialEmail, onEmailChange, onDone }: Props) {
  const { t } = useTranslation('login');
  const form = useCodeAndPasswordForm('forgot-password', initialEmail);

  async function submit({ email, email_code, password }: CodeAndPasswordValues) {
    const address = email.trim();
    showSuccess(
      await resetPassword({ email: address, email_code: email_code.trim(), password }),
      MESSAGE_SECONDS,
    );
    onDone(address);
  }

  return (
    <ModeForm
      form={form}
      name="forgot-password"
      onEmailChange={onEmailChange}
      submitLabel={t('forgot.submit')}
      submit={submit}
    >
      <CodeAndPasswordFields
        form={form}
        scene="forget"
        passwordLabel={t('fields.newPassword')}
        confirmLabel={t('fields.confirmNew')}
      />
    </ModeForm>
  );
}
