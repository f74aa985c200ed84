import { type ReactNode, useState } from 'react';
import { Button, Form, type FormInstance } from 'antd';

interface Props<T extends { email: string }> {
  form: FormInstance<T>;
  name: string;
  /** The address typed in another mode, kept when the visitor switches modes. */
  initialEmail: string;
  onEmailChange: (email: string) => void;
  submitLabel: string;
  /** Sends the checked values; a rejection has been shown by the api client already. */
  submit: (values: T) => Promise<void>;
  children: ReactNode;
}

/**
 * The frame of each login-page mode: fields checked on blur and on submit (spec section 5), the
 * address shared between modes, and a submit button that spins until the call settles; it stays
 * spinning on success, as the page moves on.
 */
export function ModeForm<T extends { email: string }>(props: Props<T>) {
  const { form, name, initialEmail, onEmailChange, submitLabel, submit, children } = props;
  const [pending, setPending] = useState(false);

  async function finish(values: T) {
    setPending(true);
    try {
      await submit(values);
    } catch {
      setPending(false);
    }
  }

  return (
    <Form
      form={form}
      name={name}
      layout="vertical"
      requiredMark={false}
      validateTrigger="onBlur"
      initialValues={{ email: initialEmail }}
      onValuesChange={(changed: Partial<T>) => {
        if (changed.email !== undefined) onEmailChange(changed.email);
      }}
      onFinish={(values) => void finish(values)}
    >
      {children}
      <Button type="primary" htmlType="submit" block loading={pending}>
        {submitLabel}
      </Button>
    </Form>
  );
}
