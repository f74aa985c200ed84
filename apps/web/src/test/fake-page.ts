import { vi } from 'vitest';
import type * as Page from '../lib/page.ts';

// Stands in for lib/page.ts, whose page loads happy-dom cannot make:
// vi.mock('…/lib/page.ts', () => import('…/test/fake-page.ts')).
export const openPage = vi.fn<typeof Page.openPage>();
export const reloadPage = vi.fn<typeof Page.reloadPage>();
