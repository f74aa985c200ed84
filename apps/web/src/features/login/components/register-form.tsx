import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { openPage } from '../../../lib/page.ts';
import { saveSessionForNextPage } from '../../../lib/session.ts';
import { register } from '../api/register.ts';
import { CodeAndPasswordFields } from './code-and-password-fields.tsx';
import { ModeForm } from './mode-form.tsx';

interface RegisterValues {
  email: string;
  email_code: string;
  password: string;
  confirm: string;
}

interface Props {
  initialEmail: string;
  onEmailChange: (email: string) => void;
  /** From the share link's `?invite_code=`; empty when there was none. */
  inviteCode: string;
}

/** Registration: e-mail, code, password twice; success signs in and opens the console. */
export function RegisterForm({ initialEmail, onEmailChange, inviteCode }: Props) {
  const { t } = useTranslation('login');
  const [form] = Form.useForm<RegisterValues>();

  async function submit({ email, email_code, password }: RegisterValues) {
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
      initialEmail={initialEmail}
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
        <Form.Item label={t('fields.inviteCode')}>
          <span className="login__invite" data-invite-code={inviteCode}>
            {inviteCode}
          </span>
        </Form.Item>
      )}
    </ModeForm>
  );
}
