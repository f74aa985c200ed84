import { Form, type FormInstance, Input, Space } from 'antd';
import type { EmailCodeScene } from '@skyway/shared/accounts';
import { EmailCodeButton } from '../../../components/email-code-button.tsx';
import { MESSAGE_SECONDS, showSuccess } from '../../../lib/toast.ts';
import { sendEmailCode } from '../api/send-email-code.ts';
import { useFormCall } from './form-failure.ts';
import { useFieldRules } from './use-field-rules.ts';

interface Props {
  form: FormInstance;
  scene: Exclude<EmailCodeScene, 'email'>;
  label: string;
}

/** The code input with its get-code button, which mails a code to the form's `email` field. */
export function EmailCodeField({ form, scene, label }: Props) {
  const rules = useFieldRules();
  const runCall = useFormCall();

  // Spec section 5: an empty address gives "please enter email", a malformed one "email format
  // incorrect", both shown by the email field's own rules; the button then goes back to idle.
  async function send() {
    const { email } = (await form.validateFields(['email'])) as { email: string };
    showSuccess(await runCall(() => sendEmailCode(email.trim(), scene)), MESSAGE_SECONDS);
  }

  return (
    <Form.Item label={label} required>
      <Space.Compact block>
        <Form.Item name="email_code" noStyle rules={rules.code}>
          <Input autoComplete="one-time-code" inputMode="numeric" maxLength={6} aria-label={label} />
        </Form.Item>
        <EmailCodeButton onSend={send} />
      </Space.Compact>
    </Form.Item>
  );
}
