import type { z } from 'zod';
import type {
  changeEmailRequest,
  changePasswordRequest,
  forgetRequest,
  loginRequest,
  registerRequest,
  verifyEmailRequest,
} from './schemas/accounts.ts';

/** Spec section 4 and PRODUCT.md section 3: the numbers every side agrees on. */
export const EMAIL_CODE_LENGTH = 6;
export const EMAIL_CODE_RESEND_SECONDS = 60;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const EMAIL_CODE_SCENES = ['register', 'forget', 'email'] as const;
export type EmailCodeScene = (typeof EMAIL_CODE_SCENES)[number];

export type VerifyEmailRequest = z.infer<typeof verifyEmailRequest>;
export type RegisterRequest = z.infer<typeof registerRequest>;
export type LoginRequest = z.infer<typeof loginRequest>;
export type ForgetRequest = z.infer<typeof forgetRequest>;
export type ChangeEmailRequest = z.infer<typeof changeEmailRequest>;
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;
