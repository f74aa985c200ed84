import { vi } from 'vitest';
import type * as Toast from '../lib/toast.ts';

// Stands in for lib/toast.ts, so that a test reads the toasts a page shows:
// vi.mock('…/lib/toast.ts', () => import('…/test/fake-toast.ts')).
export const { ERROR_SECONDS, MESSAGE_SECONDS } = await vi.importActual<typeof Toast>('../lib/toast.ts');
export const showError = vi.fn<typeof Toast.showError>();
export const showSuccess = vi.fn<typeof Toast.showSuccess>();
