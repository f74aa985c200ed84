import { useRef, useState } from 'react';
import { useAfterPress } from './use-after-press.ts';

/** A field's check: the message to show, or undefined when the value passes. */
export type Check<V> = (value: string, values: V) => string | undefined;

/** What a field component needs of its form: ids, the value, the message and the handlers. */
export interface FieldBinding {
  id: string;
  name: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
}

export interface FormFields<V> {
  bind: (field: keyof V & string) => FieldBinding;
  /** Checks the fields (all by default) and shows their messages; the values when all pass. */
  check: (fields?: (keyof V & string)[]) => V | null;
}

interface Options<V> {
  /** The form's name, which prefixes the fields' ids. */
  name: string;
  initialValues: V;
  checks: { [K in keyof V]: Check<V> };
  /** A field checked again when the field it follows changes, once it has been checked itself. */
  follows?: Partial<Record<keyof V, keyof V>>;
}

/**
 * The sign-in page's form state, without a form library: a field is checked when it is left and
 * when the form is submitted (spec section 5), and its message stays until the next check. A field
 * left by pressing a control is checked when the press ends, so that its message cannot move the
 * control from under the pointer and lose the click (`useAfterPress`).
 */
export function useFormFields<V extends { [K in keyof V]: string }>({
  name,
  initialValues,
  checks,
  follows = {},
}: Options<V>): FormFields<V> {
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<Partial<Record<keyof V, string>>>({});
  // The latest values and the fields checked so far, read by handlers between renders.
  const latest = useRef(values);
  const checked = useRef(new Set<keyof V>());
  const afterPress = useAfterPress();

  function run(fields: (keyof V)[]): boolean {
    const found: Partial<Record<keyof V, string>> = {};
    for (const field of fields) {
      checked.current.add(field);
      found[field] = checks[field](latest.current[field], latest.current);
    }
    setErrors((shown) => ({ ...shown, ...found }));
    return fields.every((field) => found[field] === undefined);
  }

  function change(field: keyof V, value: string) {
    latest.current = { ...latest.current, [field]: value };
    setValues(latest.current);
    const followers = (Object.keys(follows) as (keyof V)[]).filter(
      (follower) => follows[follower] === field && checked.current.has(follower),
    );
    if (followers.length) run(followers);
  }

  return {
    bind: (field) => ({
      id: `${name}-${field}`,
      name: field,
      value: values[field],
      error: errors[field],
      onChange: (value) => change(field, value),
      onBlur: () => afterPress(() => run([field])),
    }),
    check: (fields = Object.keys(checks) as (keyof V & string)[]) => (run(fields) ? latest.current : null),
  };
}
