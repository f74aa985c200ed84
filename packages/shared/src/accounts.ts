import { z } from 'zod';

/** Spec section 4 and PRODUCT.md section 3: the numbers every side agrees on. */
export const EMAIL_CODE_LENGTH = 6;
export const EMAIL_CODE_RESEND_SECONDS = 60;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const EMAIL_CODE_SCENES = ['register', 'forget', 'email'] as const;
export type EmailCodeScene = (typeof EMAIL_CODE_SCENES)[number];

export const emailField = z.string().trim().max(254).pipe(z.email());
export const passwordField = z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH);
export const emailCodeField = z
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

export type VerifyEmailRequest = z.infer<typeof verifyEmailRequest>;
export type RegisterRequest = z.infer<typeof registerRequest>;
export type LoginRequest = z.infer<typeof loginRequest>;
export type ForgetRequest = z.infer<typeof forgetRequest>;
export type ChangeEmailRequest = z.infer<typeof changeEmailRequest>;
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;
