import { z } from 'zod';
import {
  EMAIL_CODE_LENGTH,
  EMAIL_CODE_SCENES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from '../accounts.ts';

export const emailField = z.string().trim().max(254).pipe(z.email());
export const passwordField = z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH);
const emailCodeField = z
  .string()
  .trim()
  .regex(new RegExp(`^\\d{${EMAIL_CODE_LENGTH}}$`));

export const verifyEmailRequest = z.object({ email: emailField, scene: z.enum(EMAIL_CODE_SCENES) });
export const registerRequest = z.object({
  email: emailField,
  password: passwordField,
  email_code: emailCodeField,
  invite_code: z.string().trim().max(32).optional(),
});
// Sign-in checks only that a password was given: its length rules may have changed since it was set.
export const loginRequest = z.object({
  email: emailField,
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});
export const forgetRequest = z.object({
  email: emailField,
  email_code: emailCodeField,
  password: passwordField,
});
export const changeEmailRequest = z.object({ email: emailField, email_code: emailCodeField });
export const changePasswordRequest = z.object({
  old_pwd: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  new_pwd: passwordField,
});
