import { type ReactNode, useState } from 'react';
import { Alert, Button, Form, type FormInstance } from 'antd';
import { FormCallContext, useFormFailure } from './form-failure.ts';

interface Props<T extends { email: string }> {
  form: FormInstance<T>;
  name: string;
  /** The address typed in another mode, kept when the visitor switches modes. */
  initialEmail: string;
  onEmailChange: (email: string) => void;
  submitLabel: string;
  /** Sends the checked values; a rejection has been toasted by the api client already. */
  submit: (values: T) => Promise<void>;
  children: ReactNode;
}

/**
 * The frame of each login-page mode: fields checked on blur and on submit (spec section 5), the
 * address shared between modes, and a submit button that spins until the call settles; it stays
 * spinning on success, as the page moves on. A failed call of the form (the submit, or the get-code
 * button) is also shown above the button until the visitor edits a field.
 */
export function ModeForm<T extends { email: string }>(props: Props<T>) {
  const { form, name, initialEmail, onEmailChange, submitLabel, submit, children } = props;
  const [pending, setPending] = useState(false);
  const { failure, run, clear } = useFormFailure();

  async function finish(values: T) {
    setPending(true);
    try {
      await run(() => submit(values));
    } catch {
      setPending(false);
    }
  }

  return (
    <FormCallContext value={run}>
      <Form
        form={form}
        name={name}
        layout="vertical"
        requiredMark={false}
        validateTrigger="onBlur"
        initialValues={{ email: initialEmail }}
        onValuesChange={(changed: Partial<T>) => {
          clear();
          if (changed.email !== undefined) onEmailChange(changed.email);
        }}
        onFinish={(values) => void finish(values)}
      >
        {children}
        {/* antd's Alert has role="alert": a screen reader reads the failure out as it appears. */}
        {failure && (
          <Alert key={failure.key} className="login__failure" type="error" showIcon title={failure.text} />
        )}
        <Button type="primary" htmlType="submit" block loading={pending}>
          {submitLabel}
        </Button>
      </Form>
    </FormCallContext>
  );
}
