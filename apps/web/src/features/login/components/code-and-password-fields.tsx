import { Form, type FormInstance, Input } from 'antd';
import type { EmailCodeScene } from '@skyway/shared/accounts';
import { useTranslation } from 'react-i18next';
import { EmailCodeField } from './email-code-field.tsx';
import { useFieldRules } from './use-field-rules.ts';

interface Props {
  form: FormInstance;
  scene: Exclude<EmailCodeScene, 'email'>;
  passwordLabel: string;
  confirmLabel: string;
}

/**
 * The fields that registration and the password reset share: the address, its mailed code, and a
 * new password typed twice (spec section 5).
 */
export function CodeAndPasswordFields({ form, scene, passwordLabel, confirmLabel }: Props) {
  const { t } = useTranslation('login');
  const rules = useFieldRules();
  return (
    <>
      <Form.Item name="email" label={t('fields.email')} rules={rules.email}>
        <Input type="email" autoComplete="username" inputMode="email" />
      </Form.Item>
      <EmailCodeField form={form} scene={scene} label={t('fields.code')} />
      <Form.Item name="password" label={passwordLabel} rules={rules.newPassword}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={confirmLabel}
        dependencies={['password']}
        rules={rules.confirmPassword('password')}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
