import type { EmailCodeScene } from '@skyway/shared/accounts';
import { MESSAGE_SECONDS, showSuccess } from '../../../lib/toast.ts';
import { useEmailCodeSender } from '../../../lib/use-email-code-sender.ts';
import { sendEmailCode } from '../api/send-email-code.ts';
import { useFormCall } from './form-failure.ts';
import { TextField } from './text-field.tsx';
import type { FieldBinding, FormFields } from './use-form-fields.ts';

interface Props extends FieldBinding {
  form: FormFields<{ email: string }>;
  scene: Exclude<EmailCodeScene, 'email'>;
  label: string;
}

/** The code input with its get-code button, which mails a code to the form's `email` field. */
export function EmailCodeField({ form, scene, ...field }: Props) {
  const runCall = useFormCall();
  const sender = useEmailCodeSender(async () => {
    // Spec section 5: an empty address gives "please enter email", a malformed one "email format
    // incorrect", both shown by the email field's own check; the button then goes back to idle.
    const checked = form.check(['email']);
    if (!checked) throw new Error('The address is missing or malformed');
    showSuccess(await runCall(() => sendEmailCode(checked.email.trim(), scene)), MESSAGE_SECONDS);
  });

  return (
    <TextField
      {...field}
      className="login-field--with-button"
      autoComplete="one-time-code"
      inputMode="numeric"
      maxLength={6}
      addon={
        <button
          type="button"
          className="btn btn--ghost login-field__button"
          disabled={sender.disabled}
          onClick={() => void sender.send()}
        >
          {sender.label}
        </button>
      }
    />
  );
}
