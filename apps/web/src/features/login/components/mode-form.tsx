import { type ChangeEvent, type ReactNode, useState } from 'react';
import { FormCallContext, useFormFailure } from './form-failure.ts';
import type { FormFields } from './use-form-fields.ts';

interface Props<T extends { email: string }> {
  form: FormFields<T>;
  name: string;
  onEmailChange: (email: string) => void;
  submitLabel: string;
  /** Sends the checked values; a rejection has been toasted by the api client already. */
  submit: (values: T) => Promise<void>;
  children: ReactNode;
}

function ErrorIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="10" fill="currentColor" />
      <path d="M8.5 8.5l7 7M15.5 8.5l-7 7" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/**
 * The frame of each login-page mode: fields checked on blur and on submit (spec section 5), the
 * address shared between modes, and a submit button that spins until the call settles; it stays
 * spinning on success, as the page moves on. A failed call of the form (the submit, or the get-code
 * button) is also shown above the button until the visitor edits a field.
 */
export function ModeForm<T extends { email: string }>(props: Props<T>) {
  const { form, name, onEmailChange, submitLabel, submit, children } = props;
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

  // Every field's change bubbles here: an edit clears the failure, and the address is shared.
  function onChange(event: ChangeEvent<HTMLFormElement>) {
    clear();
    const field: EventTarget = event.target;
    if (field instanceof HTMLInputElement && field.name === 'email') onEmailChange(field.value);
  }

  return (
    <FormCallContext value={run}>
      <form
        name={name}
        className="login__form"
        // The fields' own checks speak the site's language; the browser's would not.
        noValidate
        onChange={onChange}
        onSubmit={(event) => {
          event.preventDefault();
          if (pending) return;
          const values = form.check();
          if (values) void finish(values);
        }}
      >
        {children}
        {/* role="alert": a screen reader reads the failure out as it appears. */}
        {failure && (
          <div key={failure.key} className="login__failure" role="alert">
            <ErrorIcon />
            <span>{failure.text}</span>
          </div>
        )}
        <button
          type="submit"
          className={pending ? 'btn btn--primary btn--block btn--loading' : 'btn btn--primary btn--block'}
          aria-busy={pending || undefined}
        >
          {pending && <span className="btn__spinner" aria-hidden="true" />}
          {submitLabel}
        </button>
      </form>
    </FormCallContext>
  );
}
